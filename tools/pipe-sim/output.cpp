#include "output.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>

#include "formats/metrics.hpp"
#include "formats/stats_record.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/json.hpp"

namespace sasskit::pipesim {

namespace {

// A passed record, or its run of spilled cta records read back (their
// type was read when they were spilled).
void pass(Sink& sink, const Passed& p, const SpillFile* spill) {
  if (p.spilled_end == p.spilled_begin) return sink.record(p.record);
  stream::Record cta;
  spill->read_run(p.spilled_begin, p.spilled_end, [&](std::string_view bytes, int64_t) {
    cta.refill(bytes, "spilled cta record", stream::RecordType::Cta, stream::record_type_name(stream::RecordType::Cta));
    sink.record(cta);
  });
}

class StreamSink : public stream::StreamSink<SimulatedKernel> {
 public:
  StreamSink(std::ostream& out, const std::string& name, const stream::Header& upstream, stream::Stage self,
             bool with_ctas)
      : stream::StreamSink<SimulatedKernel>(out, name, upstream, std::move(self)), with_ctas_(with_ctas) {}
  void record(const stream::Record& r) override {
    const stream::RecordType type = r.type();
    if (type != stream::RecordCodec<KernelStats>::type && (with_ctas_ || type != stream::RecordType::Cta))
      stream::StreamSink<SimulatedKernel>::record(r);
  }
  void result(const SimulatedKernel& k) override { writer().write(k.result.stats); }

 private:
  bool with_ctas_;
};

class JsonSink : public stream::SummarySink<SimulatedKernel> {
 public:
  JsonSink(std::ostream& out, std::string gpu, std::vector<stream::Stage> provenance)
      : SummarySink(out), gpu_(std::move(gpu)), provenance_(std::move(provenance)) {}
  void result(const SimulatedKernel& k) override {
    results_.push_back(KernelResult{k.result.stats, {}});
    samples_.push_back(k.sample);
  }

 private:
  void end_summary() override { write_json_summary(summary(), gpu_, results_, samples_, provenance_); }

  std::string gpu_;
  std::vector<stream::Stage> provenance_;
  std::vector<KernelResult> results_;
  std::vector<std::optional<KernelSample>> samples_;
};

}  // namespace

std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name, const stream::Header& upstream,
                                  stream::Stage self, bool with_ctas) {
  return std::make_unique<StreamSink>(out, name, upstream, std::move(self), with_ctas);
}

std::unique_ptr<Sink> json_sink(std::ostream& out, const std::string& gpu, std::vector<stream::Stage> provenance) {
  return std::make_unique<JsonSink>(out, gpu, std::move(provenance));
}

void write_batch(Sink& sink, const Workload& w, const std::vector<KernelResult>& results) {
  std::vector<std::vector<size_t>> after(w.records.size());
  for (size_t k = 0; k < w.kernels.size(); ++k) after[w.kernels[k].last_record].push_back(k);
  for (size_t i = 0; i < w.records.size(); ++i) {
    if (sink.keeps_records()) pass(sink, w.records[i], w.spill.get());
    for (size_t k : after[i]) sink.result(SimulatedKernel{results[k], w.kernels[k].sample});
  }
}

namespace {

// Simulates each batch as it comes and writes it out; each member of the
// input gets its own output member and its own GPU timeline.
class SimulatingSink : public BatchSink {
 public:
  SimulatingSink(const RunOptions& opt, const StreamOutput& out) : opt_(opt), out_(out) {}
  std::vector<KernelResult> results;

  void member(const stream::Header& header, size_t member) override {
    state_ = RunState{};
    if (out_.sink) out_.sink->member(header, member);
  }

  void batch(Workload&& w) override {
    auto done = simulate_workload(w, opt_, opcode_table_classifier, state_);
    if (out_.sink) write_batch(*out_.sink, w, done);
    results.insert(results.end(), std::make_move_iterator(done.begin()), std::make_move_iterator(done.end()));
  }

 private:
  const RunOptions& opt_;
  const StreamOutput& out_;
  RunState state_;
};

}  // namespace

std::vector<KernelResult> simulate_stream(stream::Reader& reader, const RunOptions& opt, const StreamOutput& out) {
  SimulatingSink sink(opt, out);
  read_batches(reader, out.batches, sink);
  return std::move(sink.results);
}

namespace {

// cycles, warp_insts, ipc and the stall cycles by type, in cycles and as
// shares of the stall cycles: stall-report(1)'s names (COLUMNS).
void counts_fields(JsonWriter& j, const Metrics& m) {
  j.field("cycles", m.cycles).field("warp_insts", m.instructions).field("ipc", m.ipc());
  j.field("stall_cycles", m.stall_cycles());
  for (size_t t = 0; t < kStallTypes; ++t)
    j.field(std::string("stall_") + stall_type_name(StallType(t)) + "_cycles", m.stall_type[t]);
  for (size_t t = 0; t < kStallTypes; ++t)
    j.field(std::string("stall_") + stall_type_name(StallType(t)) + "_frac", share(m.stall_type[t], m.stall_cycles()));
}

// The sampling error estimate, and the method's name where there is one.
void sampling_error_field(JsonWriter& j, const Metrics& m) {
  j.key("sampling_error_frac");
  if (!m.sampling_error) {
    j.null();
    return;
  }
  j.value(*m.sampling_error);
  j.field("sampling_method", sampling_method_name(m.sampling_method));
}

void kernel_json(JsonWriter& j, const KernelStats& s, const KernelSample* sample, const Metrics& m) {
  const double scale = sample_scale(sample);
  j.begin_object()
      .field("kernel_id", uint64_t(s.kernel_id))
      .field("kernel_name", s.name)
      .field("stream_id", s.stream_id)
      .field("start_cycle", s.start_cycle)
      .field("simulated_sms", uint64_t(s.per_sm.size()))
      .field("sample_scale", scale);
  sampling_error_field(j, m);
  counts_fields(j, m);
  j.field("occupancy_frac", m.occupancy)
      .field("unknown_opcode_warp_insts", double(s.total.unknown_opcodes) * scale)
      .field("projected", s.projection.applied)
      .field("simulated_cycles", s.projection.simulated_cycles);
  if (s.projection.error_frac) j.field("projection_error_frac", *s.projection.error_frac);
  j.end_object();
}

}  // namespace

void write_json_summary(std::ostream& out, const std::string& gpu, const std::vector<KernelResult>& results,
                        const std::vector<std::optional<KernelSample>>& samples,
                        const std::vector<stream::Stage>& provenance) {
  JsonWriter j(out);
  std::vector<Metrics> kernels;
  uint64_t end = 0;
  j.begin_object().field("gpu", gpu).key("kernels").begin_array();
  for (size_t k = 0; k < results.size(); ++k) {
    const KernelStats& s = results[k].stats;
    const KernelSample* sample = k < samples.size() && samples[k] ? &*samples[k] : nullptr;
    kernels.push_back(kernel_metrics(s, nullptr, sample));
    kernel_json(j, s, sample, kernels.back());
    end = std::max(end, s.start_cycle + s.cycles);
  }
  std::vector<WeightedMetrics> unweighted;
  for (const Metrics& m : kernels) unweighted.push_back({&m, 1});
  const Metrics all = application_totals(unweighted);
  j.end_array().key("application").begin_object();
  sampling_error_field(j, all);
  counts_fields(j, all);
  j.field("timeline_cycles", end).end_object().key("provenance");
  write_provenance(j, provenance);
  j.end_object();
  out << "\n";
}

void write_stall_trace(std::ostream& out, const std::vector<KernelResult>& results) {
  out << "kernel\tsm\tcycle\tsubcore\twhat\tevent\tpc\n";
  char pc[32];
  for (const auto& r : results)
    for (const auto& sm : r.sms)
      for (const auto& row : sm.trace) {
        if (row.has_pc)
          std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(row.pc));
        else
          std::snprintf(pc, sizeof pc, "-");
        out << r.stats.kernel_id << '\t' << sm.sm << '\t' << row.cycle << '\t' << unsigned(row.subcore) << '\t'
            << (row.issued ? "issued" : stall_type_name(row.why.type)) << '\t'
            << (row.issued ? "-" : stall_event_name(row.why.event)) << '\t' << pc << '\n';
      }
}

void warn_if_hit_rate_keys_ignored(const std::vector<KernelResult>& results, const ModelInUse& model,
                                   const std::string& input) {
  const auto without = std::count_if(results.begin(), results.end(),
                                     [](const KernelResult& r) { return r.stats.memory == "defaults"; });
  if (without == 0) return;
  const std::string which = size_t(without) == results.size()
                                ? " has no cache records (rd-cache's), so its kernels use"
                                : " has no cache record (rd-cache's) for " + std::to_string(without) + " of its " +
                                      std::to_string(results.size()) + " kernels, which use";
  warn_hit_rate_keys_ignored(model, input + which +
                             " --l1-hit-rate and --l2-hit-rate: put rd-cache, given the same keys, before pipe-sim");
}

}  // namespace sasskit::pipesim
