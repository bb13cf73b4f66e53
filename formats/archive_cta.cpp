#include "formats/archive_cta.hpp"

#include <algorithm>

#include "formats/archive_lanes.hpp"
#include "libcommon/zeroed_pages.hpp"

namespace sasskit::archive {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;

uint64_t sequence_hash(const std::vector<uint32_t>& inst, const std::vector<uint32_t>& mask) {
  uint64_t h = inst.size() * kGolden;
  for (size_t i = 0; i < inst.size(); ++i) h = (h ^ ((uint64_t(inst[i]) << 32) | mask[i])) * kGolden + 1;
  return h;
}

// A kernel or warp id read as a difference: damaged unless it fits 32 bits,
// as every id an archive was written from does.
uint32_t id32(const ByteSource& c, int64_t id, const char* what) {
  if (id < 0 || id > int64_t(UINT32_MAX)) c.damaged(std::string(what) + " id " + std::to_string(id) + " out of range");
  return static_cast<uint32_t>(id);
}

}  // namespace

size_t Columns::size() const {
  size_t n = 0;
  for (const auto& c : cols_) n += c.size();
  return n;
}

std::string Columns::join(uint64_t ctas) const {
  ByteSink head;
  head.varint(ctas);
  for (const auto& c : cols_) head.varint(c.size());
  std::string out(head.data());
  out.reserve(out.size() + size());
  for (const auto& c : cols_) out += c.data();
  return out;
}

void Columns::clear() {
  for (auto& c : cols_) c.clear();
}

namespace {
// Cleared tables kept per thread: one for each side of two kernels' coders.
constexpr size_t kSpareTables = 4;
}  // namespace

std::vector<TrendTable::Pages>& TrendTable::spares() {
  thread_local std::vector<Pages> spare = [] {
    std::vector<Pages> v;
    v.reserve(kSpareTables);  // so that a table's destructor never allocates
    return v;
  }();
  return spare;
}

TrendTable::TrendTable(unsigned bits) : shift_(64 - bits), slots_(nullptr, Unmap{(size_t(1) << bits) * sizeof(Slot)}) {
  std::vector<Pages>& spare = spares();
  const size_t bytes = slots_.get_deleter().bytes;
  const auto same_size = std::find_if(spare.begin(), spare.end(), [&](const Pages& p) { return p.get_deleter().bytes == bytes; });
  if (same_size != spare.end()) {
    slots_ = std::move(*same_size);
    spare.erase(same_size);
    return;
  }
  slots_.reset(static_cast<Slot*>(map_zeroed_pages(bytes)));
}

TrendTable::~TrendTable() {
  if (!slots_) return;  // moved from
  if (written_.size() >= slot_count())
    std::fill_n(slots_.get(), slot_count(), Slot{});
  else
    for (uint32_t i : written_) slots_[i] = Slot{};
  if (std::vector<Pages>& spare = spares(); spare.size() < kSpareTables) spare.push_back(std::move(slots_));
}

void TrendTable::Unmap::operator()(Slot* p) const { unmap_zeroed_pages(p, bytes); }

size_t TrendTable::index(uint64_t key) const { return (key * kGolden) >> shift_; }

uint64_t TrendTable::predict(uint64_t key, uint64_t fallback) const {
  const Slot& s = slots_[index(key)];
  return s.inverted_key == ~key ? s.last + s.step : fallback;
}

void TrendTable::update(uint64_t key, uint64_t value) {
  const size_t i = index(key);
  Slot& s = slots_[i];
  if (s.inverted_key == 0 && s.last == 0 && s.step == 0 && written_.size() < slot_count())
    written_.push_back(static_cast<uint32_t>(i));
  if (s.inverted_key == ~key) {
    s.step = value - s.last;
  } else {
    s.inverted_key = ~key;
    s.step = 0;
  }
  s.last = value;
}

int64_t SequenceDict::find(const WarpTrace& w) const {
  auto [lo, hi] = by_hash_.equal_range(sequence_hash(w.inst, w.mask));
  for (auto it = lo; it != hi; ++it) {
    const WarpTrace& s = seqs_[it->second];
    if (s.inst == w.inst && s.mask == w.mask) return it->second;
  }
  return -1;
}

void SequenceDict::add(const std::vector<uint32_t>& inst, const std::vector<uint32_t>& mask) {
  uint64_t bytes = 8 * inst.size() + 64;
  if (bytes_ + bytes > cap_) return;
  bytes_ += bytes;
  by_hash_.emplace(sequence_hash(inst, mask), static_cast<uint32_t>(seqs_.size()));
  WarpTrace s;
  s.inst = inst;
  s.mask = mask;
  seqs_.push_back(std::move(s));
}

KernelModel::KernelModel(const KernelInfo& kernel, uint64_t dict_cap_bytes, unsigned trend_bits)
    : kernel_(kernel), dict_(dict_cap_bytes), across_warps_(trend_bits), across_ctas_(trend_bits) {}

void KernelModel::grow_to(size_t table_size) {
  if (loops_.size() >= table_size) return;
  loops_.resize(table_size);
  last_mode_.resize(table_size);
  last_stride_.resize(table_size);
}

Dim3 KernelModel::next_cta_index() const {
  if (first_cta_) return Dim3{0, 0, 0};
  Dim3 n = prev_cta_;
  if (++n.x < kernel_.grid.x) return n;
  n.x = 0;
  if (++n.y < kernel_.grid.y) return n;
  n.y = 0;
  ++n.z;
  return n;
}

void KernelModel::begin_cta(const CtaTrace& cta) {
  prev_cta_ = cta.cta;
  first_cta_ = false;
}

void KernelModel::begin_warp(uint32_t warp_id) {
  ++warp_serial_;
  warp_id_ = warp_id;
  prev_base_ = 0;
}

namespace {
uint64_t warp_key(uint32_t inst, uint32_t k) { return (uint64_t(inst) << 32) | k; }
uint64_t cta_key(uint32_t warp, uint32_t inst, uint32_t k) { return warp_key(inst, k) ^ ((warp + 1) * kGolden); }
}  // namespace

std::array<uint64_t, KernelModel::kPredictors> KernelModel::predict(uint32_t inst) {
  Loop& l = loops_[inst];
  if (l.warp != warp_serial_) l = Loop{warp_serial_, 0, 0, 0};
  return {across_warps_.predict(warp_key(inst, l.count), prev_base_),
          across_ctas_.predict(cta_key(warp_id_, inst, l.count), prev_base_),
          l.count > 0 ? l.last + l.step : prev_base_,
          prev_base_};
}

void KernelModel::update(uint32_t inst, uint64_t base) {
  Loop& l = loops_[inst];
  across_warps_.update(warp_key(inst, l.count), base);
  across_ctas_.update(cta_key(warp_id_, inst, l.count), base);
  if (l.count > 0) l.step = base - l.last;
  l.last = base;
  ++l.count;
  prev_base_ = base;
}

// ---- encoder ----

void CtaEncoder::encode(const CtaTrace& cta, const std::vector<StaticInst>& table, Columns& out) {
  grow_to(table.size());
  ByteSink& c = out[kCtaColumn];
  c.svarint(int64_t(cta.kernel_id) - int64_t(kernel_.id));
  if (cta.cta == next_cta_index()) {
    c.varint(0);
  } else {
    c.varint(1);
    c.varint(cta.cta.x);
    c.varint(cta.cta.y);
    c.varint(cta.cta.z);
  }
  begin_cta(cta);
  c.varint(cta.warps.size());
  int64_t prev_id = -1;
  for (const WarpTrace& w : cta.warps) {
    c.svarint(int64_t(w.warp_id) - (prev_id + 1));
    prev_id = w.warp_id;
    encode_warp(w, table, out);
  }
}

void CtaEncoder::encode_warp(const WarpTrace& w, const std::vector<StaticInst>& table, Columns& out) {
  begin_warp(w.warp_id);
  encode_sequence(w, out);
  size_t mem = 0, lane = 0, extra = 0;
  for (size_t i = 0; i < w.inst.size(); ++i) {
    uint32_t inst = w.inst[i];
    if (table[inst].mem_width == 0) continue;
    uint8_t mode = w.addr_mode[mem++];
    out[kModeColumn].u8(mode ^ last_mode_[inst]);
    last_mode_[inst] = mode;
    for (unsigned e = addr_extra_count(AddrMode(mode), w.mask[i]); e > 0; --e)
      out[kExtraColumn].svarint(int64_t(w.addr_extra[extra++]));
    encode_access(inst, w.mask[i], w.addrs.data() + lane, out);
    lane += active_lanes(w.mask[i]);
  }
}

void CtaEncoder::encode_sequence(const WarpTrace& w, Columns& out) {
  int64_t id = dict_.find(w);
  if (id >= 0) {
    out[kSeqColumn].varint(uint64_t(id) + 1);
    return;
  }
  out[kSeqColumn].varint(0);
  out[kInstColumn].varint(w.inst.size());
  int64_t prev_inst = -1;
  uint32_t prev_mask = 0xffffffff;
  for (size_t i = 0; i < w.inst.size(); ++i) {
    out[kInstColumn].svarint(int64_t(w.inst[i]) - (prev_inst + 1));
    out[kMaskColumn].varint(w.mask[i] ^ prev_mask);
    prev_inst = w.inst[i];
    prev_mask = w.mask[i];
  }
  dict_.add(w.inst, w.mask);
}

void CtaEncoder::encode_access(uint32_t inst, uint32_t mask, const uint64_t* a, Columns& out) {
  unsigned n = active_lanes(mask);
  if (n == 0) return;
  auto candidates = predict(inst);
  int sel = 0;
  uint64_t best = ~uint64_t(0);
  for (int p = 0; p < kPredictors; ++p) {
    uint64_t cost = zigzag(int64_t(a[0] - candidates[p]));
    if (cost < best) best = cost, sel = p;
  }
  LaneKind kind = kAffine;
  uint64_t stride = 0;
  Irregular irregular;
  if (n > 1) kind = classify_lanes(a, n, mask, stride, irregular);
  out[kSelColumn].u8(static_cast<uint8_t>(sel | kind << 2));
  out[kBaseColumn].svarint(int64_t(a[0] - candidates[sel]));
  if (kind == kList || kind == kPacked) {
    write_irregular(a, n, irregular, out[kLaneColumn], out[kPackedColumn]);
  } else if (n > 1) {
    out[kStrideColumn].svarint(int64_t(stride - last_stride_[inst]));
    last_stride_[inst] = stride;
  }
  update(inst, a[0]);
}

// ---- decoder ----

struct CtaDecoder::Sources {
  std::vector<ByteSource> col;
};

void CtaDecoder::decode(std::string_view payload, const std::vector<StaticInst>& table,
                        const std::string& where, const std::function<void(CtaTrace&)>& emit) {
  grow_to(table.size());
  ByteSource head(payload, where);
  uint64_t ctas = head.varint();
  std::array<uint64_t, kColumnCount> sizes;
  for (auto& s : sizes) s = head.varint();
  Sources in;
  for (uint64_t s : sizes) {
    if (s > head.remaining()) head.damaged("column sizes exceed the block");
    in.col.emplace_back(head.raw(s), where);
  }
  if (!head.done()) head.damaged("data after the last column");
  if (ctas > in.col[kCtaColumn].remaining()) head.damaged("CTA count exceeds the block");
  for (uint64_t i = 0; i < ctas; ++i) {
    decode_cta(in, table);
    emit(cta_);
  }
  for (const auto& c : in.col)
    if (!c.done()) c.damaged("unused data at the end of a column");
}

void CtaDecoder::decode_cta(Sources& in, const std::vector<StaticInst>& table) {
  ByteSource& c = in.col[kCtaColumn];
  CtaTrace& cta = cta_;
  cta.kernel_id = id32(c, c.svarint_after(kernel_.id), "kernel");
  if (c.varint() == 0) {
    cta.cta = next_cta_index();
  } else {
    cta.cta.x = static_cast<uint32_t>(c.varint());
    cta.cta.y = static_cast<uint32_t>(c.varint());
    cta.cta.z = static_cast<uint32_t>(c.varint());
  }
  begin_cta(cta);
  const uint64_t warps = c.count();
  if (warps > kMaxWarpsPerCta)
    c.damaged(std::to_string(warps) + " warps in a thread block (at most " + std::to_string(kMaxWarpsPerCta) + ")");
  cta.warps.resize(warps);
  uint64_t cta_insts = 0;
  int64_t prev_id = -1;
  for (WarpTrace& w : cta.warps) {
    w.addrs.clear();
    w.addr_mode.clear();
    w.addr_extra.clear();
    w.warp_id = id32(c, c.svarint_after(prev_id + 1), "warp");
    prev_id = w.warp_id;
    begin_warp(w.warp_id);
    decode_sequence(in, w, table.size(), cta_insts);
    for (size_t i = 0; i < w.inst.size(); ++i) {
      uint32_t inst = w.inst[i];
      if (table[inst].mem_width == 0) continue;
      uint8_t mode = in.col[kModeColumn].u8() ^ last_mode_[inst];
      if (mode > 2) in.col[kModeColumn].damaged("address mode " + std::to_string(mode));
      w.addr_mode.push_back(mode);
      last_mode_[inst] = mode;
      for (unsigned e = addr_extra_count(AddrMode(mode), w.mask[i]); e > 0; --e)
        w.addr_extra.push_back(uint64_t(in.col[kExtraColumn].svarint()));
      decode_access(in, inst, w.mask[i], w.addrs);
    }
  }
}

void CtaDecoder::decode_sequence(Sources& in, WarpTrace& w, size_t table_size, uint64_t& cta_insts) {
  ByteSource& sc = in.col[kSeqColumn];
  uint64_t ref = sc.varint();
  if (ref > 0) {
    if (ref > dict_.size()) sc.damaged("sequence " + std::to_string(ref - 1) + " is unknown");
    cta_insts += dict_.at(ref - 1).inst.size();
    if (cta_insts > kMaxCtaInstructions)
      sc.damaged("a thread block repeats sequences to more than " + std::to_string(kMaxCtaInstructions) +
                 " instructions");
    w.inst = dict_.at(ref - 1).inst;
    w.mask = dict_.at(ref - 1).mask;
    return;
  }
  ByteSource& ic = in.col[kInstColumn];
  ByteSource& mc = in.col[kMaskColumn];
  w.inst.resize(ic.count());
  w.mask.resize(w.inst.size());
  cta_insts += w.inst.size();
  int64_t prev_inst = -1;
  uint32_t prev_mask = 0xffffffff;
  for (size_t i = 0; i < w.inst.size(); ++i) {
    int64_t inst = ic.svarint_after(prev_inst + 1);
    if (inst < 0 || uint64_t(inst) >= table_size)
      ic.damaged("instruction index " + std::to_string(inst) + " is outside the kernel's table");
    w.inst[i] = static_cast<uint32_t>(inst);
    w.mask[i] = static_cast<uint32_t>(mc.varint()) ^ prev_mask;
    prev_inst = inst;
    prev_mask = w.mask[i];
  }
  dict_.add(w.inst, w.mask);
}

void CtaDecoder::decode_access(Sources& in, uint32_t inst, uint32_t mask, std::vector<uint64_t>& addrs) {
  unsigned n = active_lanes(mask);
  if (n == 0) return;
  auto candidates = predict(inst);
  uint8_t sel = in.col[kSelColumn].u8();
  LaneKind kind = static_cast<LaneKind>(sel >> 2);
  if (sel >> 4) in.col[kSelColumn].damaged("bad selector");
  uint64_t base = candidates[sel & 3] + uint64_t(in.col[kBaseColumn].svarint());
  // Room for every lane at once; each is written in place.
  const size_t first = addrs.size();
  addrs.resize(first + n);
  uint64_t* a = addrs.data() + first;
  a[0] = base;
  if (kind == kList || kind == kPacked) {
    ByteSource& lc = in.col[kLaneColumn];
    unsigned shift = lc.u8();
    if (shift > 63) lc.damaged("bad lane shift");
    if (kind == kList) {
      for (unsigned j = 1; j < n; ++j) a[j] = a[j - 1] + (uint64_t(lc.svarint()) << shift);
    } else {
      unsigned width = lc.u8();
      if (width < 1 || width > 64) lc.damaged("bad lane width");
      uint64_t packed[kMaxPacked];
      read_packed(in.col[kPackedColumn], n, width, packed);
      const uint64_t lowest = base - (packed[0] << shift);
      for (unsigned j = 1; j < n; ++j) a[j] = lowest + (packed[j] << shift);
    }
  } else if (n > 1) {
    uint64_t stride = last_stride_[inst] + uint64_t(in.col[kStrideColumn].svarint());
    last_stride_[inst] = stride;
    if (kind == kAffine) {
      for (unsigned j = 1; j < n; ++j) a[j] = base + stride * j;
    } else {
      const auto pos = lane_positions(mask);
      for (unsigned j = 1; j < n; ++j) a[j] = base + stride * unsigned(pos[j] - pos[0]);
    }
  }
  update(inst, base);
}

}  // namespace sasskit::archive
