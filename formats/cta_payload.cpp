#include "formats/cta_payload.hpp"

#include <unordered_map>

#include "formats/archive_lanes.hpp"

namespace sasskit::stream {
namespace {

using archive::BitReader;
using archive::BitWriter;
using archive::ByteSink;
using archive::ByteSource;
using archive::LaneKind;

// What the previous accesses of one static instruction in this warp say
// about its next one: loops usually step their addresses by a constant.
struct InstHistory {
  uint64_t last = 0, step = 0, stride = 0;
  bool seen = false;
};

// Per-warp address prediction, the same on both sides.
class WarpModel {
 public:
  uint64_t predict(uint32_t inst) const {
    auto it = history_.find(inst);
    return it != history_.end() && it->second.seen ? it->second.last + it->second.step : previous_;
  }
  uint64_t& stride(uint32_t inst) { return history_[inst].stride; }
  void update(uint32_t inst, uint64_t base) {
    InstHistory& h = history_[inst];
    h.step = h.seen ? base - h.last : 0;
    h.last = base;
    h.seen = true;
    previous_ = base;
  }

 private:
  std::unordered_map<uint32_t, InstHistory> history_;
  uint64_t previous_ = 0;
};

LaneKind lane_kind(const uint64_t* a, unsigned n, uint32_t mask, uint64_t& stride) {
  stride = a[1] - a[0];
  if (archive::follows(a, n, stride, [](unsigned j) { return uint64_t(j); })) return archive::kAffine;
  const auto pos = archive::lane_positions(mask);
  const int64_t gap = pos[1] - pos[0];
  const int64_t diff = int64_t(a[1] - a[0]);
  stride = uint64_t(diff / gap);
  if (diff % gap == 0 && archive::follows(a, n, stride, [&](unsigned j) { return uint64_t(pos[j] - pos[0]); }))
    return archive::kLaneAffine;
  return archive::plan_irregular(a, n).kind;
}

void encode_access(uint32_t inst, uint32_t mask, const uint64_t* a, WarpModel& model, ByteSink& out) {
  const unsigned n = active_lanes(mask);
  out.svarint(int64_t(a[0] - model.predict(inst)));
  if (n > 1) {
    uint64_t stride = 0;
    const LaneKind kind = lane_kind(a, n, mask, stride);
    out.u8(kind);
    if (kind == archive::kAffine || kind == archive::kLaneAffine) {
      out.svarint(int64_t(stride - model.stride(inst)));
      model.stride(inst) = stride;
    } else {
      const archive::Irregular irregular = archive::plan_irregular(a, n);
      out.u8(static_cast<uint8_t>(irregular.shift));
      if (kind == archive::kList) {
        for (unsigned j = 1; j < n; ++j) out.svarint(int64_t(a[j] - a[j - 1]) >> irregular.shift);
      } else {
        out.u8(static_cast<uint8_t>(irregular.width));
        BitWriter bits(out);
        for (unsigned j = 0; j < n; ++j) bits.put((a[j] - irregular.lowest) >> irregular.shift, irregular.width);
      }
    }
  }
  model.update(inst, a[0]);
}

void decode_access(uint32_t inst, uint32_t mask, WarpModel& model, ByteSource& in, std::vector<uint64_t>& addrs) {
  const unsigned n = active_lanes(mask);
  const uint64_t base = model.predict(inst) + uint64_t(in.svarint());
  addrs.push_back(base);
  if (n > 1) {
    const uint8_t kind = in.u8();
    if (kind == archive::kAffine || kind == archive::kLaneAffine) {
      const uint64_t stride = model.stride(inst) + uint64_t(in.svarint());
      model.stride(inst) = stride;
      const auto pos = archive::lane_positions(mask);
      for (unsigned j = 1; j < n; ++j)
        addrs.push_back(base + stride * (kind == archive::kAffine ? j : unsigned(pos[j] - pos[0])));
    } else if (kind == archive::kList || kind == archive::kPacked) {
      const unsigned shift = in.u8();
      if (shift > 63) in.damaged("bad lane shift");
      if (kind == archive::kList) {
        for (unsigned j = 1; j < n; ++j) addrs.push_back(addrs.back() + (uint64_t(in.svarint()) << shift));
      } else {
        const unsigned width = in.u8();
        if (width < 1 || width > 64) in.damaged("bad lane width");
        BitReader bits(in);
        const uint64_t lowest = base - (bits.get(width) << shift);
        for (unsigned j = 1; j < n; ++j) addrs.push_back(lowest + (bits.get(width) << shift));
      }
    } else {
      in.damaged("bad lane kind " + std::to_string(kind));
    }
  }
  model.update(inst, base);
}

void encode_warp(const WarpTrace& w, const std::vector<size_t>& memory, ByteSink& out) {
  out.varint(w.warp_id);
  out.varint(w.inst.size());
  int64_t prev_inst = -1;
  uint32_t prev_mask = 0xffffffff;
  for (size_t i = 0; i < w.inst.size(); ++i) {
    out.svarint(int64_t(w.inst[i]) - (prev_inst + 1));
    out.varint(w.mask[i] ^ prev_mask);
    prev_inst = w.inst[i];
    prev_mask = w.mask[i];
  }
  out.varint(memory.size());
  int64_t prev_pos = -1;
  for (size_t p : memory) {
    out.varint(uint64_t(int64_t(p) - prev_pos - 1));
    prev_pos = int64_t(p);
  }
  WarpModel model;
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

WarpTrace decode_warp(ByteSource& in) {
  WarpTrace w;
  w.warp_id = static_cast<uint32_t>(in.varint());
  const uint64_t n = in.varint();
  if (n > in.remaining() / 2) in.damaged(std::to_string(n) + " instructions exceed the record");
  w.inst.resize(n);
  w.mask.resize(n);
  int64_t prev_inst = -1;
  uint32_t prev_mask = 0xffffffff;
  for (size_t i = 0; i < n; ++i) {
    const int64_t inst = prev_inst + 1 + in.svarint();
    if (inst < 0 || inst > int64_t(UINT32_MAX)) in.damaged("instruction index " + std::to_string(inst));
    w.inst[i] = static_cast<uint32_t>(inst);
    w.mask[i] = static_cast<uint32_t>(in.varint()) ^ prev_mask;
    prev_inst = inst;
    prev_mask = w.mask[i];
  }
  const uint64_t m = in.varint();
  if (m > n) in.damaged(std::to_string(m) + " memory instructions among " + std::to_string(n));
  std::vector<size_t> memory(m);
  int64_t prev_pos = -1;
  for (auto& p : memory) {
    const uint64_t gap = in.varint();
    if (gap >= n || uint64_t(prev_pos + 1) + gap >= n) in.damaged("memory instruction beyond the warp's");
    p = size_t(prev_pos + 1) + gap;
    prev_pos = int64_t(p);
  }
  WarpModel model;
  for (size_t i : memory) {
    const uint8_t mode = in.u8();
    if (mode > 2) in.damaged("address mode " + std::to_string(mode));
    w.addr_mode.push_back(mode);
    for (unsigned e = addr_extra_count(AddrMode(mode), w.mask[i]); e > 0; --e)
      w.addr_extra.push_back(uint64_t(in.svarint()));
    if (active_lanes(w.mask[i]) > 0) decode_access(w.inst[i], w.mask[i], model, in, w.addrs);
  }
  return w;
}

}  // namespace

std::string encode_warps(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table) {
  ByteSink out;
  out.varint(warps.size());
  std::vector<size_t> memory;
  for (const WarpTrace& w : warps) {
    memory.clear();
    for (size_t i = 0; i < w.inst.size(); ++i)
      if (table[w.inst[i]].mem_width > 0) memory.push_back(i);
    encode_warp(w, memory, out);
  }
  return out.data();
}

std::vector<WarpTrace> decode_warps(std::string_view payload, const std::string& where) {
  ByteSource in(payload, where, "damaged cta record");
  const uint64_t count = in.varint();
  // Every warp takes bytes, so the count is bounded by the data.
  if (count > in.remaining()) in.damaged(std::to_string(count) + " warps exceed the record");
  std::vector<WarpTrace> warps;
  warps.reserve(count);
  for (uint64_t k = 0; k < count; ++k) warps.push_back(decode_warp(in));
  if (!in.done()) in.damaged("data after the last warp");
  return warps;
}

}  // namespace sasskit::stream
