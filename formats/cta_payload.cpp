#include "formats/cta_payload.hpp"

#include <cstring>

#include "formats/archive_lanes.hpp"

namespace sasskit::stream {
namespace {

using archive::ByteSink;
using archive::ByteSource;
using archive::LaneKind;

void encode_access(uint32_t inst, uint32_t mask, const uint64_t* a, WarpModel& model, ByteSink& out) {
  const unsigned n = active_lanes(mask);
  InstHistory& h = model.history(inst);
  out.svarint(int64_t(a[0] - model.predict(h)));
  if (n > 1) {
    uint64_t stride = 0;
    archive::Irregular irregular;
    const LaneKind kind = archive::classify_lanes(a, n, mask, stride, irregular);
    out.u8(kind);
    if (kind == archive::kAffine || kind == archive::kLaneAffine) {
      out.svarint(int64_t(stride - h.stride));
      h.stride = stride;
    } else {
      archive::write_irregular(a, n, irregular, out, out);
    }
  }
  model.update(h, a[0]);
}

void encode_warp(const WarpTrace& w, const std::vector<size_t>& memory, WarpModel& model, ByteSink& out) {
  out.varint(w.warp_id);
  out.varint(w.inst.size());
  out.write_at_most(2 * ByteSink::kMaxVarintBytes * w.inst.size(), [&](char* at) {
    int64_t prev_inst = -1;
    uint32_t prev_mask = 0xffffffff;
    for (size_t i = 0; i < w.inst.size(); ++i) {
      at = ByteSink::put_varint(at, archive::zigzag(int64_t(w.inst[i]) - (prev_inst + 1)));
      at = ByteSink::put_varint(at, w.mask[i] ^ prev_mask);
      prev_inst = w.inst[i];
      prev_mask = w.mask[i];
    }
    return at;
  });
  out.varint(memory.size());
  out.write_at_most(ByteSink::kMaxVarintBytes * memory.size(), [&](char* at) {
    int64_t prev_pos = -1;
    for (size_t p : memory) {
      at = ByteSink::put_varint(at, uint64_t(int64_t(p) - prev_pos - 1));
      prev_pos = int64_t(p);
    }
    return at;
  });
  model.reset();
  size_t lane = 0, extra = 0;
  for (size_t k = 0; k < memory.size(); ++k) {
    const size_t i = memory[k];
    const uint8_t mode = w.addr_mode[k];
    out.u8(mode);
    for (unsigned e = addr_extra_count(AddrMode(mode), w.mask[i]); e > 0; --e)
      out.svarint(int64_t(w.addr_extra[extra++]));
    if (active_lanes(w.mask[i]) == 0) continue;
    encode_access(w.inst[i], w.mask[i], w.addrs.data() + lane, model, out);
    lane += active_lanes(w.mask[i]);
  }
}

}  // namespace

std::string encode_warps(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table) {
  PayloadEncoder encoder;
  return std::string(encoder.encode(warps, table));
}

// Each warp starts a new generation of the model (encode_warp), so a model
// kept from one payload to the next predicts as a fresh one would.
std::string_view PayloadEncoder::encode(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table) {
  out_.clear();
  out_.varint(warps.size());
  for (const WarpTrace& w : warps) {
    memory_.clear();
    for (size_t i = 0; i < w.inst.size(); ++i)
      if (table[w.inst[i]].mem_width > 0) memory_.push_back(i);
    encode_warp(w, memory_, model_, out_);
  }
  return out_.data();
}

std::vector<WarpTrace> decode_warps(std::string_view payload, const std::string& where) {
  std::vector<WarpTrace> warps;
  decode_warps(payload, where, warps);
  return warps;
}

void decode_warps(std::string_view payload, const std::string& where, std::vector<WarpTrace>& warps) {
  PayloadReader in(payload, where);
  size_t count = 0;
  while (in.next_warp(true)) {
    if (count == warps.size()) warps.emplace_back();
    WarpTrace& w = warps[count++];
    w.addrs.clear();
    w.addr_mode.clear();
    w.addr_extra.clear();
    w.warp_id = in.warp_id();
    w.inst.assign(in.inst().begin(), in.inst().end());
    w.mask.assign(in.mask().begin(), in.mask().end());
    for (uint32_t i : in.memory()) {
      const size_t lanes = w.addrs.size();
      w.addrs.resize(lanes + active_lanes(w.mask[i]));
      const PayloadReader::Access a = in.read_access(w.addrs.data() + lanes);
      w.addr_mode.push_back(a.mode);
      w.addr_extra.insert(w.addr_extra.end(), a.extra.begin(), a.extra.begin() + a.extras);
    }
  }
  warps.resize(count);
}

void WarpModel::reset() {
  previous_ = 0;
  used_ = 0;
  if (++generation_ == 0) {  // wrapped: no slot may look current
    for (InstHistory& h : slots_) h.generation = 0;
    generation_ = 1;
  }
}

InstHistory& WarpModel::history(uint32_t inst) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = (inst * size_t{0x9E3779B1}) >> 7 & mask;; i = (i + 1) & mask) {
    InstHistory& h = slots_[i];
    if (h.generation == generation_ && h.inst == inst) return h;
    if (h.generation == generation_) continue;
    if (2 * (used_ + 1) > slots_.size()) {
      grow();
      return history(inst);
    }
    ++used_;
    return h = InstHistory{.inst = inst, .generation = generation_};
  }
}

void WarpModel::grow() {
  std::vector<InstHistory> old(2 * slots_.size());
  old.swap(slots_);
  used_ = 0;
  for (const InstHistory& h : old)
    if (h.generation == generation_) history(h.inst) = h;
}

void WarpModel::update(InstHistory& h, uint64_t base) {
  h.step = h.seen ? base - h.last : 0;
  h.last = base;
  h.seen = true;
  previous_ = base;
}

PayloadReader::PayloadReader(std::string_view payload, const std::string& where)
    : in_(payload, where, "damaged cta record") {
  restart(payload);
}

void PayloadReader::restart(std::string_view payload) {
  in_.restart(payload);
  warps_read_ = 0;
  warp_ids_.clear();
  warps_ = in_.varint();
  // Every warp takes bytes, so the count is bounded by the data.
  if (warps_ > in_.remaining()) in_.damaged(std::to_string(warps_) + " warps exceed the record");
}

bool PayloadReader::next_warp(bool addresses) {
  if (warps_read_ == warps_) {
    if (!in_.done()) in_.damaged("data after the last warp");
    return false;
  }
  ++warps_read_;
  const uint64_t id = in_.varint();
  if (id > UINT32_MAX) in_.damaged("warp number " + std::to_string(id));
  warp_id_ = static_cast<uint32_t>(id);
  if (!warp_ids_.insert(warp_id_))
    fail_input(in_.where(), "warp " + std::to_string(warp_id_) + " appears twice in the CTA");
  columns_repeat_ = skip_repeated_columns();
  if (!columns_repeat_) read_columns();
  next_access_ = 0;
  model_.reset();
  if (!addresses) {
    for (uint32_t i : memory()) {
      read_mode_and_extras(mask_[i]);
      if (active_lanes(mask_[i]) > 0) skip_lanes(mask_[i]);
    }
    next_access_ = memory_size_;
  }
  return true;
}

// Reading the columns checks nothing beyond their own bytes but the bound
// on the instruction count, and they hold two bytes or more for each
// instruction: the bound holds wherever the same bytes lie whole.
bool PayloadReader::skip_repeated_columns() {
  const std::string_view rest = in_.rest();
  if (columns_.empty() || rest.size() < columns_.size() ||
      std::memcmp(rest.data(), columns_.data(), columns_.size()) != 0)
    return false;
  in_.raw(columns_.size());
  return true;
}

void PayloadReader::read_columns() {
  const std::string_view start = in_.rest();
  columns_.clear();  // until these read whole
  const uint64_t n = in_.varint();
  if (n > in_.remaining() / 2) in_.damaged(std::to_string(n) + " instructions exceed the record");
  size_ = n;
  if (inst_.size() < n) {
    inst_.resize(n);
    mask_.resize(n);
  }
  int64_t prev_inst = -1;
  uint32_t prev_mask = 0xffffffff;
  for (size_t i = 0; i < n; ++i) {
    // Mostly the next index and an unchanged mask: a byte each.
    uint8_t step = 0, flips = 0;
    const bool small = in_.two_small(step, flips);
    const int64_t inst = small ? prev_inst + 1 + archive::unzigzag(step) : in_.svarint_after(prev_inst + 1);
    if (inst < 0 || inst > int64_t(UINT32_MAX)) in_.damaged("instruction index " + std::to_string(inst));
    inst_[i] = static_cast<uint32_t>(inst);
    mask_[i] = (small ? flips : static_cast<uint32_t>(in_.varint())) ^ prev_mask;
    prev_inst = inst;
    prev_mask = mask_[i];
  }
  const uint64_t m = in_.varint();
  if (m > n) in_.damaged(std::to_string(m) + " memory instructions among " + std::to_string(n));
  memory_size_ = m;
  if (memory_.size() < m) memory_.resize(m);
  int64_t prev_pos = -1;
  for (size_t k = 0; k < m; ++k) {
    const uint64_t gap = in_.varint();
    if (gap >= n || uint64_t(prev_pos + 1) + gap >= n) in_.damaged("memory instruction beyond the warp's");
    memory_[k] = static_cast<uint32_t>(uint64_t(prev_pos + 1) + gap);
    prev_pos = int64_t(memory_[k]);
  }
  columns_.assign(start.data(), start.size() - in_.remaining());
}

PayloadReader::Access PayloadReader::read_access(uint64_t* lanes, bool affine_first_only) {
  const uint32_t i = memory_[next_access_++];
  Access a = read_mode_and_extras(mask_[i]);
  if (active_lanes(mask_[i]) > 0) read_lanes(inst_[i], mask_[i], lanes, affine_first_only, a);
  return a;
}

PayloadReader::Access PayloadReader::read_mode_and_extras(uint32_t mask) {
  Access a;
  a.mode = in_.u8();
  if (a.mode > 2) in_.damaged("address mode " + std::to_string(a.mode));
  a.extras = addr_extra_count(AddrMode(a.mode), mask);
  for (unsigned e = 0; e < a.extras; ++e) a.extra[e] = uint64_t(in_.svarint());
  return a;
}

void PayloadReader::read_lanes(uint32_t inst, uint32_t mask, uint64_t* lanes, bool affine_first_only,
                               Access& access) {
  const unsigned n = active_lanes(mask);
  InstHistory& h = model_.history(inst);
  const uint64_t base = model_.predict(h) + uint64_t(in_.svarint());
  lanes[0] = base;
  access.affine = n == 1;
  if (n > 1) {
    const uint8_t kind = in_.u8();
    if (kind == archive::kAffine || kind == archive::kLaneAffine) {
      const uint64_t stride = h.stride + uint64_t(in_.svarint());
      h.stride = stride;
      if (kind == archive::kAffine) {
        for (unsigned j = 1; j < n && !affine_first_only; ++j) lanes[j] = base + stride * j;
        access.affine = true;
        access.stride = stride;
      } else {
        const auto pos = archive::lane_positions(mask);
        for (unsigned j = 1; j < n; ++j) lanes[j] = base + stride * unsigned(pos[j] - pos[0]);
      }
    } else if (kind == archive::kList || kind == archive::kPacked) {
      const unsigned shift = in_.u8();
      if (shift > 63) in_.damaged("bad lane shift");
      if (kind == archive::kList) {
        for (unsigned j = 1; j < n; ++j) lanes[j] = lanes[j - 1] + (uint64_t(in_.svarint()) << shift);
      } else {
        const unsigned width = in_.u8();
        if (width < 1 || width > 64) in_.damaged("bad lane width");
        uint64_t packed[archive::kMaxPacked];
        archive::read_packed(in_, n, width, packed);
        const uint64_t lowest = base - (packed[0] << shift);
        for (unsigned j = 1; j < n; ++j) lanes[j] = lowest + (packed[j] << shift);
      }
    } else {
      in_.damaged("bad lane kind " + std::to_string(kind));
    }
  }
  model_.update(h, base);
}

bool warp_agrees_with(const PayloadReader& in, const std::vector<StaticInst>& table) {
  const auto inst = in.inst();
  const auto memory = in.memory();
  size_t k = 0;
  for (size_t i = 0; i < inst.size(); ++i) {
    if (inst[i] >= table.size()) return false;
    const bool listed = k < memory.size() && memory[k] == i;
    if ((table[inst[i]].mem_width > 0) != listed) return false;
    k += listed;
  }
  return true;
}

bool WarpUnits::add(const PayloadReader& in, const std::vector<StaticInst>& table,
                    std::span<const UnitClass> unit_of, UnitCounts& counts) {
  if (!known_ || !in.columns_repeat()) {
    known_ = false;
    if (!warp_agrees_with(in, table)) return false;
    units_ = {};
    for (uint32_t i : in.inst()) ++units_[static_cast<size_t>(unit_of[i])];
    known_ = true;
  }
  counts += units_;
  return true;
}

bool count_payload_units(std::string_view payload, const std::string& where, const std::vector<StaticInst>& table,
                         std::span<const UnitClass> unit_of, UnitCounts& counts) {
  PayloadReader in(payload, where);
  if (in.warps() == 0) return false;
  UnitCounts counted{};
  WarpUnits units;
  while (in.next_warp(false))
    if (!units.add(in, table, unit_of, counted)) return false;
  counts = counted;
  return true;
}

// What read_lanes reads, with its checks, without the prediction.
void PayloadReader::skip_lanes(uint32_t mask) {
  const unsigned n = active_lanes(mask);
  in_.svarint();
  if (n < 2) return;
  const uint8_t kind = in_.u8();
  if (kind == archive::kAffine || kind == archive::kLaneAffine) {
    in_.svarint();
  } else if (kind == archive::kList || kind == archive::kPacked) {
    if (in_.u8() > 63) in_.damaged("bad lane shift");
    if (kind == archive::kList) {
      for (unsigned j = 1; j < n; ++j) in_.svarint();
    } else {
      const unsigned width = in_.u8();
      if (width < 1 || width > 64) in_.damaged("bad lane width");
      in_.raw((uint64_t(n) * width + 7) / 8);
    }
  } else {
    in_.damaged("bad lane kind " + std::to_string(kind));
  }
}

}  // namespace sasskit::stream
