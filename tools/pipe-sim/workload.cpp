#include "workload.hpp"

#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/cta_payload.hpp"
#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "formats/stats_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/parallel.hpp"

namespace sasskit::pipesim {
namespace {

// Spilled CTAs are counted in groups that hold about this many bytes, on
// the run's threads.
constexpr size_t kCountGroupBytes = size_t(4) << 20;

// Builds the batches from the kernel layer's events.
class BatchBuilder : public stream::KernelHandler {
 public:
  BatchBuilder(const BatchOptions& options, BatchSink& sink) : options_(options), sink_(sink) { start_batch(); }
  bool saw_kernel() const { return saw_kernel_; }

  void begin_member(const stream::Header& header, size_t member) override { sink_.member(header, member); }
  void end_member(size_t) override { hand_out(); }
  void end_kernel(const stream::Kernel&) override { count_waiting(); }

  // The stream layer refused a record: the CTAs before it, still waiting to
  // be counted, are checked first, so that the first error in the stream is
  // the one reported.
  void before_failing() { count_waiting(); }

  // A kernel record completes the kernels before it: hand them out when
  // they are enough.
  void begin_kernel(const stream::Kernel& k, const stream::Record& r) override {
    count_waiting();
    if (!open_.kernels.empty() && open_bytes_ >= options_.batch_bytes) hand_out();
    saw_kernel_ = true;
    classify_ = options_.classify(k.info().binary_version);
    units_.clear();
    open_.kernels.push_back(KernelInput{.info = k.info(), .where = k.where()});
    add_about_kernel(r);
  }

  void insts(const stream::Kernel&, const InstTable& slice, const stream::Record& r) override {
    count_waiting();
    KernelInput& k = open_.kernels.back();
    for (const StaticInst& s : slice.insts) units_.push_back(stream::pipeline_unit(s, classify_(s.opcode)));
    k.table.insert(k.table.end(), slice.insts.begin(), slice.insts.end());
    add_about_kernel(r);
  }

  void cta(const stream::Kernel& kernel, const stream::CtaRecord& cta) override {
    const stream::Record& r = cta.record();
    open_bytes_ += r.bytes().size();
    KernelInput& k = open_.kernels.back();
    if (kernel.ctas_seen() > UINT32_MAX) {  // SmWork numbers a kernel's CTAs in 32 bits
      count_waiting();
      fail_input(r.where(), kernel.label() + " has more than " + std::to_string(UINT32_MAX) +
                                " cta records: more than pipe-sim simulates in one kernel");
    }
    if (!open_.spill) {
      k.ctas.push_back(cta.decode());
      check_has_warps(k.ctas.back().warps.size(), r);
      add_about_kernel(r);
      return;
    }
    // Only the instruction counts are needed until an SM takes the CTA:
    // the CTA waits with a group, counted together on the run's threads
    // before any later record is taken (count_waiting).
    waiting_.push_back(WaitingCta{waiting_text_.size(), r.bytes().size(), r.where().size(), cta.index()});
    waiting_text_ += r.bytes();
    waiting_text_ += r.where();
    waiting_bytes_ += sizeof(WaitingCta) + r.bytes().size() + r.where().size();  // about what it holds
    if (waiting_bytes_ >= kCountGroupBytes) count_waiting();
  }

  // cache, sample and sched records inform the simulation; every attached
  // record passes through.
  void attached(const stream::Kernel&, const stream::Record& r) override {
    count_waiting();
    KernelInput& k = open_.kernels.back();
    const stream::RecordType type = r.type();
    if (type == stream::RecordCodec<KernelCacheModel>::type) k.cache = stream::decode<KernelCacheModel>(r);
    if (type == stream::RecordCodec<KernelSample>::type) k.sample = stream::decode<KernelSample>(r);
    if (type == stream::RecordCodec<KernelSchedule>::type) k.sched = stream::decode<KernelSchedule>(r);
    // A stats record comes after the kernel's CTAs: none before it means a
    // --stats-only result, which simulated again would give zeros.
    if (type == stream::RecordCodec<KernelStats>::type && k.ctas.empty() && k.spilled.empty())
      fail_input(r.where(), "kernel " + std::to_string(k.info.id) +
                                " has results but no cta records (a pipe-sim --stats-only stream?): "
                                "simulating it again needs the stream with its CTAs");
    add_about_kernel(r);
  }

  void memcpy(const stream::Record& r) override {
    count_waiting();
    open_.records.push_back(Passed{r});
  }
  void other(const stream::Record& r) override {
    count_waiting();
    open_.records.push_back(Passed{r});
  }

 private:
  // A spilled CTA of the open kernel not yet counted, with a copy of its
  // record's bytes and its place in the input in waiting_text_ (the reader
  // reuses its record). Only the bytes wait: a Record parsed for its payload
  // holds the parse (kilobytes) as long as it lives.
  struct WaitingCta {
    size_t at = 0;  // in waiting_text_: the bytes, then the place
    size_t bytes = 0, where = 0;  // their lengths
    uint64_t index = 0;
    UnitCounts units{};
    bool counted = false;
    std::exception_ptr error;
    std::string_view bytes_in(const std::string& text) const { return {text.data() + at, bytes}; }
    std::string where_in(const std::string& text) const { return text.substr(at + bytes, where); }
    stream::Record record_in(const std::string& text) const {
      return stream::Record(std::string(bytes_in(text)), where_in(text));
    }
  };

  // Counts the waiting CTAs, in parallel, then takes them in stream order:
  // the first one with an error stops the reading, as if each had been
  // counted when it came; and as then, a CTA sees only the table entries
  // announced before it, since they are counted before any later record
  // (a slice of the table among them) is taken. A compact payload is read
  // through without its addresses; one in full form, or one that disagrees
  // with the table, is decoded (and checked) here; an SM decodes the CTA
  // again when it takes it. One more task appends the group's bytes to the
  // spill meanwhile, in stream order (the reading's longest serial step).
  void count_waiting() {
    if (waiting_.empty()) return;
    // None left to count twice after an error; the room stays for the next group.
    std::vector<WaitingCta> group;
    std::string text;
    group.swap(waiting_);
    text.swap(waiting_text_);
    waiting_bytes_ = 0;
    const std::vector<StaticInst>& table = open_.kernels.back().table;
    GroupSpill spilled(group.size());
    parallel_for(group.size() + 1, options_.threads, [&](size_t i) {
      if (i == 0) return spilled.append(*open_.spill, group, text);
      WaitingCta& w = group[i - 1];
      try {
        const stream::Record record = w.record_in(text);
        const auto payload = stream::cta_payload(record);
        w.counted = payload && stream::count_payload_units(*payload, record.where(), table, units_, w.units);
      } catch (...) {
        w.error = std::current_exception();
      }
    });
    for (size_t i = 0; i < group.size(); ++i) {
      WaitingCta& w = group[i];
      if (w.error) std::rethrow_exception(w.error);
      if (!w.counted) w.units = decode_and_count(w.record_in(text), table);
      add_spilled_cta(w, spilled.record(i));
    }
    group.clear();
    text.clear();
    waiting_.swap(group);
    waiting_text_.swap(text);
  }

  // A group's records appended to the spill, in order, on one task; a
  // failure to write stops there and is reported at that CTA, after any
  // error of a CTA before it or of its own.
  class GroupSpill {
   public:
    explicit GroupSpill(size_t ctas) : records_(ctas) {}
    void append(SpillFile& spill, const std::vector<WaitingCta>& group, const std::string& text) {
      for (; appended_ < group.size(); ++appended_) {
        try {
          records_[appended_] = spill.append(group[appended_].bytes_in(text));
        } catch (...) {
          error_ = std::current_exception();
          return;
        }
      }
    }
    // The spill record of the group's CTA i.
    size_t record(size_t i) const {
      if (i == appended_) std::rethrow_exception(error_);
      return records_[i];
    }

   private:
    std::vector<size_t> records_;
    size_t appended_ = 0;
    std::exception_ptr error_;
  };

  // As CtaRecord::decode does, without the stream layer's kernel, which is
  // gone when the layer has refused a later record (before_failing).
  UnitCounts decode_and_count(const stream::Record& record, const std::vector<StaticInst>& table) const {
    CtaTrace c;
    stream::RecordCodec<CtaTrace>::unpack(record, c);
    stream::validate_cta(c, table, record.where());
    check_has_warps(c.warps.size(), record);
    return count_units(c.warps, [&](uint32_t i) { return units_[i]; });
  }

  void add_spilled_cta(const WaitingCta& w, size_t record) {
    KernelInput& k = open_.kernels.back();
    if (k.spilled.empty()) k.first_spilled = record;
    k.spilled.add(w.index, w.units);
    add_spilled(record);
  }

  static void check_has_warps(size_t warps, const stream::Record& r) {
    if (warps == 0) fail_input(r.where(), "thread block has no warps (a launched block has at least one)");
  }

  void start_batch() {
    open_ = Workload{};
    open_bytes_ = 0;
    if (options_.intake == CtaIntake::Spill) open_.spill = std::make_unique<SpillFile>();
  }

  void hand_out() {
    if (open_.records.empty()) return;
    if (open_.spill) open_.spill->flush();
    sink_.batch(std::move(open_));
    start_batch();
  }

  void add_about_kernel(const stream::Record& r) {
    open_.records.push_back(Passed{r});
    open_.kernels.back().last_record = open_.records.size() - 1;
  }

  // A spilled CTA joins the run of spilled records just before it, if any.
  void add_spilled(size_t record) {
    Passed* run = open_.records.empty() ? nullptr : &open_.records.back();
    if (run && run->spilled_end == record && run->spilled_end > run->spilled_begin)
      run->spilled_end = record + 1;
    else
      open_.records.push_back(Passed{{}, record, record + 1});
    open_.kernels.back().last_record = open_.records.size() - 1;
  }

  const BatchOptions& options_;
  BatchSink& sink_;
  Workload open_;               // read, not yet handed out
  size_t open_bytes_ = 0;       // cta record bytes of open_'s kernels
  Classifier classify_;         // the open kernel's
  std::vector<UnitClass> units_;  // per table entry of the open kernel
  std::vector<WaitingCta> waiting_;  // of the open kernel, in stream order
  std::string waiting_text_;         // their records' bytes and places, back to back
  size_t waiting_bytes_ = 0;
  bool saw_kernel_ = false;
};

}  // namespace

void read_batches(stream::Reader& reader, const BatchOptions& options, BatchSink& sink) {
  BatchBuilder builder(options, sink);
  try {
    stream::read_kernels(reader, builder);
  } catch (...) {
    builder.before_failing();
    throw;
  }
  if (!builder.saw_kernel())
    fail_input(reader.name(), "the stream holds no kernel records: nothing to simulate");
}

}  // namespace sasskit::pipesim
