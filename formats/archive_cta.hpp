// The CTA codec of the archive (formats/ARCHIVE.md, "CTA blocks"): a warp's
// (inst, mask) sequence is stored once per kernel and referred to after;
// addresses are predicted from the rule they followed before (same
// instruction in the previous warp, in the same warp of the previous CTA,
// in the previous loop iteration) and only the miss is stored; lanes are
// stored as a stride when affine, as deltas otherwise. Encoder and decoder
// keep the same KernelModel, so the decoder makes the same predictions.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/archive_bytes.hpp"
#include "formats/trace.hpp"

namespace sasskit::archive {

// The columns of a CTA block, in the order they are stored.
enum Column : size_t {
  kCtaColumn,     // kernel id, CTA index, warp count, warp ids
  kSeqColumn,     // per warp: 0 = literal sequence follows, else dictionary id + 1
  kInstColumn,    // literal sequences: length, instruction index deltas
  kMaskColumn,    // literal sequences: mask XOR previous mask
  kModeColumn,    // per memory instruction: address mode XOR the instruction's last mode
  kSelColumn,     // per memory instruction with lanes: predictor | lane kind << 2
  kBaseColumn,    // first lane's address minus the chosen prediction
  kStrideColumn,  // affine lanes: stride minus the instruction's last stride
  kLaneColumn,    // irregular lanes: shift, then deltas >> shift or the packed width
  kPackedColumn,  // bit-packed lane offsets, each instruction's padded to a byte
  kExtraColumn,   // WarpTrace::addr_extra values, zigzag
  kColumnCount
};

class Columns {
 public:
  ByteSink& operator[](Column c) { return cols_[c]; }
  size_t size() const;
  // The block payload: CTA count, column sizes, columns.
  std::string join(uint64_t ctas) const;
  void clear();

 private:
  std::array<ByteSink, kColumnCount> cols_;
};

// One prediction trend per key: the last value and the step before it.
// Direct-mapped with a fixed number of slots, so memory stays bounded; a
// collision only costs a worse prediction, identically on both sides.
class TrendTable {
 public:
  explicit TrendTable(unsigned bits);
  ~TrendTable();
  TrendTable(TrendTable&&) = default;
  TrendTable& operator=(TrendTable&&) = delete;
  // last + step when the key was seen, `fallback` otherwise.
  uint64_t predict(uint64_t key, uint64_t fallback) const;
  void update(uint64_t key, uint64_t value);

 private:
  // A fresh slot holds key ~0 with last = step = 0. The key is stored
  // inverted so that a fresh table is all zero bytes: its pages are mapped
  // straight from the system, which hands them out zeroed on first touch
  // (in huge pages where it can: a kernel's keys touch pages all over it).
  // A table that ends clears the slots it wrote and is kept for the next
  // table of its size on this thread (spares()), so a run touches a
  // kernel's pages once, not once per kernel: a fresh mapping faults in
  // every page its keys hash to (85,000 faults, a third of unpacking an
  // archive of 320 kernels), and clearing it whole costs megabytes a kernel.
  struct Slot {
    uint64_t inverted_key, last, step;
  };
  struct Unmap {
    size_t bytes;
    void operator()(Slot* p) const;
  };
  using Pages = std::unique_ptr<Slot[], Unmap>;
  static std::vector<Pages>& spares();
  size_t index(uint64_t key) const;
  size_t slot_count() const { return slots_.get_deleter().bytes / sizeof(Slot); }
  unsigned shift_;
  Pages slots_;
  // Slots written since the table was all zero; once it would reach the
  // slot count, the whole table is cleared instead.
  std::vector<uint32_t> written_;
};

// (inst, mask) sequences seen in this kernel, up to `cap_bytes` of them.
class SequenceDict {
 public:
  explicit SequenceDict(uint64_t cap_bytes) : cap_(cap_bytes) {}
  // Dictionary id of an equal sequence, or -1.
  int64_t find(const WarpTrace& w) const;
  // Adds it unless the cap is reached.
  void add(const std::vector<uint32_t>& inst, const std::vector<uint32_t>& mask);
  size_t size() const { return seqs_.size(); }
  const WarpTrace& at(size_t id) const { return seqs_[id]; }

 private:
  std::vector<WarpTrace> seqs_;  // inst and mask only
  std::unordered_multimap<uint64_t, uint32_t> by_hash_;
  uint64_t bytes_ = 0, cap_;
};

// State shared by both sides for one kernel.
class KernelModel {
 public:
  // The archive format uses kTrendBits; a fuzz target passes fewer to run
  // the same decoding many more times a second.
  static constexpr unsigned kTrendBits = 18;
  KernelModel(const KernelInfo& kernel, uint64_t dict_cap_bytes, unsigned trend_bits = kTrendBits);

 protected:
  static constexpr int kPredictors = 4;
  void begin_cta(const CtaTrace& cta);
  void begin_warp(uint32_t warp_id);
  // Candidate first-lane addresses for the next occurrence of `inst` in this warp.
  std::array<uint64_t, kPredictors> predict(uint32_t inst);
  void update(uint32_t inst, uint64_t base);
  Dim3 next_cta_index() const;

  KernelInfo kernel_;
  SequenceDict dict_;
  std::vector<uint8_t> last_mode_;    // per instruction index
  std::vector<uint64_t> last_stride_; // per instruction index
  Dim3 prev_cta_;
  bool first_cta_ = true;
  void grow_to(size_t table_size);

 private:
  struct Loop {
    uint64_t warp = ~uint64_t(0);  // warp serial it belongs to
    uint32_t count = 0;
    uint64_t last = 0, step = 0;
  };
  std::vector<Loop> loops_;  // per instruction index, for the current warp
  TrendTable across_warps_, across_ctas_;
  uint64_t warp_serial_ = 0;
  uint32_t warp_id_ = 0;
  uint64_t prev_base_ = 0;
};

class CtaEncoder : private KernelModel {
 public:
  using KernelModel::KernelModel;
  // Appends `cta` to `out`; `table` is the kernel's instruction table so far
  // and must cover every index the CTA uses (validate_cta checks that).
  void encode(const CtaTrace& cta, const std::vector<StaticInst>& table, Columns& out);

 private:
  void encode_warp(const WarpTrace& w, const std::vector<StaticInst>& table, Columns& out);
  void encode_sequence(const WarpTrace& w, Columns& out);
  void encode_access(uint32_t inst, uint32_t mask, const uint64_t* addrs, Columns& out);
};

class CtaDecoder : private KernelModel {
 public:
  using KernelModel::KernelModel;
  // Decodes every CTA of one block payload in order; `where` names the block.
  // `emit` may take the CTA's columns (swap them): each CTA is decoded afresh.
  void decode(std::string_view payload, const std::vector<StaticInst>& table,
              const std::string& where, const std::function<void(CtaTrace&)>& emit);

 private:
  struct Sources;
  // Into cta_, whose warps' columns keep their capacity from CTA to CTA.
  void decode_cta(Sources& in, const std::vector<StaticInst>& table);
  // Fills w.inst and w.mask; `cta_insts` counts the CTA's instructions so
  // far, so back-references cannot expand it past kMaxCtaInstructions.
  void decode_sequence(Sources& in, WarpTrace& w, size_t table_size, uint64_t& cta_insts);
  void decode_access(Sources& in, uint32_t inst, uint32_t mask, std::vector<uint64_t>& addrs);

  CtaTrace cta_;  // the CTA decode() emits
};

}  // namespace sasskit::archive
