#include "rd_cache.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <exception>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>

#include "access_spill.hpp"
#include "formats/cache_record.hpp"
#include "formats/held_kernel.hpp"
#include "formats/kernel_placement.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/byte_size.hpp"
#include "libcommon/cta_unit_counts.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/nonstall.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/parallel.hpp"
#include "libcommon/placement.hpp"

namespace sasskit::rdcache {

namespace {

// The kernel's CTAs: each one's accesses are extracted as it arrives and
// spilled until its SM's group comes up.
class SpilledCtas : public CtaSource {
 public:
  explicit SpilledCtas(std::unique_ptr<AccessSpill> spill) : accesses_(std::move(spill)) {}
  void add(uint32_t linear, const UnitCounts& units, const CtaAccesses& accesses) {
    accesses_->append(accesses);
    note(linear, units);
  }
  // The same with the accesses encoded (AccessSpill::encode).
  void add_encoded(uint32_t linear, const UnitCounts& units, std::string_view accesses) {
    accesses_->append_encoded(accesses);
    note(linear, units);
  }
  // Every CTA added: from here on they load.
  void complete() { accesses_->flush(); }
  // The spill file, emptied, for another kernel.
  std::unique_ptr<AccessSpill> give_up_spill() {
    accesses_->clear();
    return std::move(accesses_);
  }
  // Without a sched record the modeled schedule covers only the CTAs the
  // stream holds, never a declared grid's worth (formats/SECURITY.md): each
  // CTA is then numbered by its rank in grid order, which for a complete
  // grid is its linear index.
  void number_by_rank() {
    if (std::is_sorted(linear_.begin(), linear_.end())) {  // in grid order, as a tracer writes them
      std::iota(linear_.begin(), linear_.end(), 0u);
      return;
    }
    std::vector<uint32_t> order(linear_.size());  // a kernel has at most 2^32 - 1 CTAs
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return linear_[a] < linear_[b]; });
    for (uint32_t rank = 0; rank < order.size(); ++rank) linear_[order[rank]] = rank;
  }
  // The CTAs' predicted times, by linear index (0 where the stream holds
  // no CTA), at least `grid` of them. Their instruction counts are
  // forgotten: nothing needs them after (4 bytes a CTA while it is modeled).
  std::vector<uint64_t> take_cycles(const NonStallModel& model, size_t grid) {
    const std::vector<uint64_t> by_id = predicted_cycles_by_id(model, units_);
    std::vector<uint64_t> out(grid);
    for (size_t c = 0; c < linear_.size(); ++c) {
      if (linear_[c] >= out.size()) out.resize(linear_[c] + size_t(1));
      out[linear_[c]] = by_id[units_of_[c]];
    }
    units_of_ = {};
    units_ = {};
    return out;
  }
  bool empty() const { return linear_.empty(); }
  void note(uint32_t linear, const UnitCounts& units) {
    linear_.push_back(linear);
    units_of_.push_back(units_.intern(units));
  }
  size_t size() const override { return linear_.size(); }
  uint32_t linear(size_t cta) const override { return linear_[cta]; }
  void load(size_t cta, CtaAccesses& out) const override { accesses_->load(cta, linear_[cta], out); }

 private:
  std::unique_ptr<AccessSpill> accesses_;
  // Per CTA, in stream order (deques grow without copying themselves).
  std::deque<uint32_t> linear_;    // place in the grid
  std::deque<uint32_t> units_of_;  // its instructions by pipeline unit (in units_), for its predicted time
  UnitCountsTable units_;
};

// A kernel read, from its kernel record until its results are written.
struct ReadKernel {
  ReadKernel(const KernelInfo& info, const GpuConfig& gpu, std::unique_ptr<AccessSpill> spill)
      : accesses(info, gpu), ctas(std::move(spill)) {}
  KernelAccesses accesses;
  SpilledCtas ctas;
  uint64_t stream_id = 0;
  unsigned ctas_per_sm = 0;
  KernelSchedule schedule;          // once placed
  std::vector<uint64_t> cta_cycles; // by linear index, as placed
  uint64_t end = 0;                 // its last CTA's end on the GPU timeline
};

// A kernel's results, kept until its held records go out.
struct Results {
  KernelInfo info;
  KernelCacheModel model;
  std::vector<SweepResult> sweep;
};

// The kernel layer's events through the cache model, in the filter
// skeleton (formats/held_kernel.hpp). Kernels that share SMs (as placed)
// are modeled together: a kernel's records stay held until a later kernel
// runs beside none of the held kernels (or a memcpy or the member's end
// comes); then the held kernels are modeled and each one's results go out
// ahead of its held CTAs.
class Filter : public stream::HeldKernelFilter {
 public:
  Filter(Sink& sink, const GpuConfig& gpu, const Options& options)
      : HeldKernelFilter(sink, true), sink_(sink), gpu_(gpu), options_(options), nonstall_(gpu) {}

 private:
  // Each member is a stream of its own: L2 starts empty, and its kernels
  // are placed on an idle GPU, as pipe-sim does.
  void member_begins(const stream::Header&, size_t) override {
    placement_.emplace(gpu_, options_.policy, options_.serial_kernels);
    model_.emplace(gpu_, placement_->rules(), make_access_order(options_.order), options_.sweep, options_.threads);
  }

  void kernel_begins(const stream::Kernel& k, const stream::Record& r) override {
    to_place_ = stream::kernel_to_place(k.info(), r.where());
    open_ = std::make_unique<ReadKernel>(k.info(), gpu_, take_spill());
    open_->stream_id = to_place_.stream_id;
    open_->ctas_per_sm = resident_ctas(gpu_, to_place_);
    opcodes_ = &OpcodeTable::for_version(k.info().binary_version);
    units_.clear();
  }

  void insts_read(const stream::Kernel&, const InstTable& slice) override {
    add_insts(open_->accesses, slice.insts);
    for (const StaticInst& s : slice.insts) units_.push_back(stream::pipeline_unit(s, opcodes_->classify(s.opcode)));
  }

  // The record is read once, for the counts and the accesses: from its
  // compact payload, or decoded where it is in full form or count_payload
  // does not take it. With more than one thread, CTAs wait in a batch that
  // the threads read together, one of them holding the batch's records
  // meanwhile; what each gave is added in stream order, so the spill, the
  // counts and any error are those of one thread.
  bool holds_ctas_later() const override { return options_.threads > 1; }
  void ctas_due() override { read_pending(); }
  void cta_read(const stream::Kernel&, const stream::CtaRecord& cta) override {
    if (options_.threads <= 1) {
      read_now(cta);
      return;
    }
    if (pending_size_ == pending_.size()) pending_.emplace_back();
    PendingCta& p = pending_[pending_size_++];
    // A record of its own, not a copy: a copy would share the reader's
    // parsed object.
    p.record.refill(cta.record());
    p.index = cta.index();
    pending_bytes_ += p.record.bytes().size();
    if (pending_size_ == kBatchCtas || pending_bytes_ >= kBatchBytes) read_pending();
  }

  void read_now(const stream::CtaRecord& cta) {
    const stream::Record& r = cta.record();
    UnitCounts units{};
    const auto payload = stream::cta_payload(r);
    if (payload && count_payload(open_->accesses, *payload, r.where(), units_, units, accesses_)) {
      open_->ctas.add(static_cast<uint32_t>(cta.index()), units, accesses_);
      return;
    }
    read_decoded(r, cta.index());
  }

  // CtaRecord::decode against the kernel's table as this filter holds it
  // (the kernel layer's Kernel is gone when a batch is read after the
  // reader failed), count_cta and the CTA's accesses.
  void read_decoded(const stream::Record& r, uint64_t index) {
    const CtaTrace trace = stream::RecordCodec<CtaTrace>::unpack(r);
    stream::validate_cta(trace, open_->accesses.table, r.where());
    count_cta(open_->accesses, trace, r.where());
    const UnitCounts units = count_units(trace.warps, [&](uint32_t i) { return units_[i]; });
    open_->ctas.add(static_cast<uint32_t>(index), units, cta_accesses(open_->accesses, trace, 0));
  }

 public:
  // Reads the CTAs waiting in the batch: before any other event, and before
  // a failure of the reader is reported (an error of a CTA before it comes
  // first, as with one thread). Task 0 holds their records, in order; a
  // failure to write is reported at the CTA it stopped at, before that
  // CTA's own error, as where each record was held as it came.
  void read_pending() {
    const size_t n = std::exchange(pending_size_, 0);
    pending_bytes_ = 0;
    if (n == 0) return;
    size_t held = 0;
    std::exception_ptr hold_error;
    parallel_for(n + 1, options_.threads, [&](size_t task) {
      if (task == 0) {
        try {
          for (; held < n; ++held) hold_cta(pending_[held].record.bytes(), pending_[held].index);
        } catch (...) {
          hold_error = std::current_exception();
        }
        return;
      }
      PendingCta& p = pending_[task - 1];
      p.error = nullptr;
      try {
        const auto payload = stream::cta_payload(p.record);
        p.from_payload = payload && read_payload(open_->accesses, *payload, p.record.where(), units_, p.units,
                                                 p.accesses, p.tally);
        if (!p.from_payload) return;
        AccessSpill::encode(p.accesses, p.spilled);
      } catch (...) {
        p.error = std::current_exception();
      }
    });
    for (size_t i = 0; i < n; ++i) {
      const PendingCta& p = pending_[i];
      if (hold_error && held == i) std::rethrow_exception(hold_error);
      if (p.error) std::rethrow_exception(p.error);
      if (!p.from_payload) {
        read_decoded(p.record, p.index);
        continue;
      }
      p.tally.add_to(open_->accesses);
      open_->ctas.add_encoded(static_cast<uint32_t>(p.index), p.units, p.spilled);
    }
  }

 private:
  // An upstream cache record is dropped: this run's replaces it.
  bool keeps_attached(const stream::Kernel&, const stream::Record& r) override {
    const stream::RecordType type = r.type();
    if (type == stream::RecordCodec<KernelCacheModel>::type) return false;
    if (type == stream::RecordCodec<KernelSchedule>::type) schedule_ = stream::decode<KernelSchedule>(r);
    if (type == stream::RecordCodec<KernelSample>::type) warn_if_sampled(stream::decode<KernelSample>(r));
    return true;
  }

  // cta-sample before rd-cache leaves the shared L2 and DRAM the kept CTAs'
  // traffic alone (HyFiSS models L2 on every SM's accesses): on a kernel
  // that memory bounds, the sample then runs far too fast, and the sample's
  // error estimate cannot see it. Said once, at the first such kernel.
  void warn_if_sampled(const KernelSample& sample) {
    if (warned_sampled_ || sample.ctas.size() >= sample.kernel_ctas) return;
    warned_sampled_ = true;
    warn("kernel " + std::to_string(sample.kernel_id),
         "the stream holds only the " + std::to_string(sample.ctas.size()) + " of " +
             std::to_string(sample.kernel_ctas) +
             " CTAs that cta-sample kept: L2 and DRAM see their traffic alone, which overstates L2 hits "
             "and understates memory queues; run rd-cache before cta-sample (said once)");
  }

  // A copy comes between the kernels before it and those after.
  void memcpy_read(const stream::Record& r) override {
    model_held(false);
    const Memcpy m = stream::decode<Memcpy>(r);
    if (options_.memcpy_to_l2) model_->copy_to_l2(m.address, m.bytes);
  }

  void kernel_ends(const stream::Kernel&) override {
    std::unique_ptr<ReadKernel> k = std::move(open_);
    const std::optional<KernelSchedule> recorded = std::move(schedule_);
    schedule_.reset();
    if (k->ctas.empty()) {
      warn("kernel " + std::to_string(k->accesses.info.id),
           "no cta records (a stream without addresses?): no cache model for this kernel");
      spare_.push_back(k->ctas.give_up_spill());
      return;
    }
    k->ctas.complete();
    // A recorded schedule is checked against the grid (place) before its
    // size sizes anything: a declared grid never allocates ahead of data.
    if (recorded) {
      k->schedule = placement_->place(to_place_, &*recorded, {});
      k->cta_cycles = k->ctas.take_cycles(nonstall_, k->schedule.sm.size());
    } else {
      k->ctas.number_by_rank();
      k->cta_cycles = k->ctas.take_cycles(nonstall_, k->ctas.size());
      k->schedule = placement_->place(to_place_, nullptr, k->cta_cycles);
    }
    for (uint32_t c = 0; c < k->ctas.size(); ++c)
      k->end = std::max(k->end, placed_run(placement_->rules(), k->schedule, k->cta_cycles, k->ctas.linear(c)).end);
    if (!shares_sms(*k) || sharing_.size() == kMostSharing) model_held(true);
    sharing_.push_back(std::move(k));
  }

  // At most this many kernels are modeled together, whatever the placement:
  // kernels of two streams launched back to back overlap all the way, and
  // the set would hold the application (its records, its spill files, and
  // a resident group per kernel and SM). The kernel after is modeled with
  // those that come after it, on an empty L1.
  static constexpr size_t kMostSharing = 32;

  // Whether the kernel runs beside one held, as placed: one that may run
  // with it (LaunchRules::may_run_together: of another stream, without
  // --serial-kernels) still runs at its launch.
  bool shares_sms(const ReadKernel& k) const {
    return std::any_of(sharing_.begin(), sharing_.end(), [&](const auto& held) {
      return placement_->rules().may_run_together(held->stream_id, k.stream_id) && held->end > k.schedule.launch;
    });
  }

  // The kernels sharing SMs are held until no later kernel can join them.
  bool releases_at_end(const stream::Kernel&) override { return sharing_.empty(); }
  void member_ends(size_t) override {
    model_held(false);
  }

  // Models the kernels held as sharing SMs and writes out their records,
  // but for the kernel ending now with `keep_last`.
  void model_held(bool keep_last) {
    std::vector<KernelRun> runs;
    for (const auto& k : sharing_) runs.push_back(KernelRun{k->accesses, k->ctas, k->schedule, k->ctas_per_sm, k->cta_cycles});
    if (!runs.empty()) {
      const std::vector<KernelResult> results = model_->run(runs);
      for (size_t i = 0; i < results.size(); ++i) {
        const ReadKernel& k = *sharing_[i];
        results_.push_back(Results{k.accesses.info, make_record(k.accesses, results[i], k.ctas.size(), gpu_),
                                   results[i].sweep});
      }
    }
    release_held(keep_last);
    for (const auto& k : sharing_) spare_.push_back(k->ctas.give_up_spill());
    sharing_.clear();
  }

  // A spill file for a kernel's accesses: one a kernel before used, if any
  // (a temporary file costs system calls; streams hold thousands of kernels).
  std::unique_ptr<AccessSpill> take_spill() {
    if (spare_.empty()) return std::make_unique<AccessSpill>();
    std::unique_ptr<AccessSpill> spill = std::move(spare_.back());
    spare_.pop_back();
    return spill;
  }

  void results_due() override {
    const Results& r = results_.front();
    sink_.result(KernelCacheResult{r.info, r.model, r.sweep});
    results_.pop_front();
  }

  Sink& sink_;
  const GpuConfig& gpu_;
  const Options& options_;
  NonStallModel nonstall_;
  std::optional<CacheModel> model_;     // per member
  std::optional<Placement> placement_;  // per member
  KernelToPlace to_place_;              // the open kernel's
  const OpcodeTable* opcodes_ = nullptr;
  std::vector<UnitClass> units_;        // per table entry
  std::unique_ptr<ReadKernel> open_;
  CtaAccesses accesses_;                // read_now's, reused
  // A CTA record waiting in the batch, and what reading it gave.
  struct PendingCta {
    stream::Record record;  // its bytes
    uint64_t index = 0;
    std::exception_ptr error;   // reading it failed
    bool from_payload = false;  // read; else it is decoded, in order
    UnitCounts units{};
    CtaAccesses accesses;
    CtaTally tally;
    std::string spilled;  // the accesses, encoded for the spill
  };
  // CTAs read together: enough to share among threads and to wake them
  // seldom (each batch is a parallel section; 256 CTAs a batch made a
  // 65,536-CTA vecadd 4% slower at -j 2), few enough that the batch stays
  // small (a few MiB) whatever the kernel: at most 1024 CTAs or 512 KiB of
  // their records.
  static constexpr size_t kBatchCtas = 1024;
  static constexpr size_t kBatchBytes = size_t{512} << 10;
  std::vector<PendingCta> pending_;  // its first pending_size_ wait
  size_t pending_size_ = 0;
  size_t pending_bytes_ = 0;  // their records' bytes
  std::vector<std::unique_ptr<AccessSpill>> spare_;  // spill files of kernels modeled, to reuse
  std::optional<KernelSchedule> schedule_;  // the open kernel's sched record
  bool warned_sampled_ = false;
  std::vector<std::unique_ptr<ReadKernel>> sharing_;  // placed, held, sharing SMs
  std::deque<Results> results_;  // modeled, waiting for their held records
};

uint64_t parse_sweep_size(std::string_view text) {
  const ParsedByteSize size = parse_byte_size(text);
  if (size.error || size.bytes == 0)
    fail_usage("--sweep: '" + std::string(text) + "' is not " + kByteSizeForm + ", e.g. 32KiB or 4MiB");
  return size.bytes;
}

std::vector<std::string_view> split(std::string_view list) {
  std::vector<std::string_view> items;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    items.push_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return items;
}

}  // namespace

void run_filter(stream::Reader& in, Sink& sink, const GpuConfig& gpu, const Options& options) {
  Filter filter(sink, gpu, options);
  try {
    stream::read_kernels(in, filter);
  } catch (...) {
    filter.read_pending();  // throws instead where a CTA read before the failure is wrong
    throw;
  }
  sink.finish();
}

std::vector<SweepPoint> parse_sweep(const std::string& sizes, const std::string& assoc_list, const GpuConfig& gpu) {
  std::vector<unsigned> assocs;
  for (std::string_view item : split(assoc_list)) {
    unsigned a = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), a);
    if (ec != std::errc() || end != item.data() + item.size())
      fail_usage("--sweep-assoc: '" + std::string(item) + "' is not a number of ways");
    assocs.push_back(a);
  }
  std::vector<SweepPoint> points;
  for (std::string_view item : split(sizes)) {
    std::vector<Level> levels = {Level::L1, Level::L2};
    if (item.starts_with("l1:") || item.starts_with("l2:")) {
      levels = {item[1] == '1' ? Level::L1 : Level::L2};
      item.remove_prefix(3);
    }
    const uint64_t size = parse_sweep_size(item);
    for (Level level : levels) {
      const CacheGeometry& g = level == Level::L1 ? gpu.l1d : gpu.l2;
      std::vector<unsigned> ways = assocs;
      if (ways.empty()) ways = g.assoc == 0 ? std::vector<unsigned>{0} : std::vector<unsigned>{g.assoc, 0};
      for (unsigned a : ways) {
        sets_ways(size, a, g.line_bytes, std::string("--sweep ") + level_name(level) + ":" + std::string(item));
        points.push_back(SweepPoint{level, size, a});
      }
    }
  }
  return points;
}

}  // namespace sasskit::rdcache
