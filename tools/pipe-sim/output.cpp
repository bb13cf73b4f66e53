#include "output.hpp"

#include <cstdio>
#include <iterator>

#include "formats/stats_record.hpp"
#include "libcommon/json.hpp"

namespace sasskit::pipesim {

namespace {

void write_passed(stream::Writer& out, const Passed& p, const SpillFile* spill, bool with_ctas) {
  if (p.spilled_end == p.spilled_begin) {
    const std::string& type = p.record.type();
    if (type != stream::RecordCodec<KernelStats>::type && (with_ctas || type != "cta")) out.write(p.record);
    return;
  }
  if (!with_ctas) return;
  std::string bytes;
  for (size_t i = p.spilled_begin; i < p.spilled_end; ++i) {
    spill->read(i, bytes);
    out.write(stream::Record(bytes, "spilled cta record"));
  }
}

}  // namespace

void write_stream(stream::Writer& out, const Workload& w, const std::vector<KernelResult>& results, bool with_ctas) {
  std::vector<std::vector<size_t>> after(w.records.size());
  for (size_t k = 0; k < w.kernels.size(); ++k) after[w.kernels[k].last_record].push_back(k);
  for (size_t i = 0; i < w.records.size(); ++i) {
    write_passed(out, w.records[i], w.spill.get(), with_ctas);
    for (size_t k : after[i]) out.write(results[k].stats);
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
    if (out_.check_header) out_.check_header(header);
    state_ = RunState{};
    if (member > 0 && out_.writer) out_.writer->next_member(header);
  }

  void batch(Workload&& w) override {
    auto done = simulate_workload(w, opt_, opcode_table_classifier, state_);
    if (out_.writer) write_stream(*out_.writer, w, done, out_.with_ctas);
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

double share(uint64_t part, uint64_t whole) { return whole ? double(part) / double(whole) : 0.0; }

// The kernel's instructions over its (projected) cycles, as stall-report
// counts them: under PKP the trace's count, not the simulated part.
uint64_t kernel_insts(const KernelStats& s) {
  return s.projection.applied ? s.projection.projected_insts : s.total.insts;
}

void stall_shares(JsonWriter& j, const SimCounters& c) {
  j.key("stall_share").begin_object();
  for (size_t t = 0; t < kStallTypes; ++t) j.field(stall_type_name(StallType(t)), share(c.stall_type[t], c.sched_cycles));
  j.end_object();
}

}  // namespace

void write_json_summary(std::ostream& out, const std::string& gpu, const std::vector<KernelResult>& results) {
  JsonWriter j(out);
  SimCounters all;
  uint64_t end = 0;
  j.begin_object().field("gpu", gpu).key("kernels").begin_array();
  uint64_t all_insts = 0;
  for (const auto& r : results) {
    const KernelStats& s = r.stats;
    const uint64_t insts = kernel_insts(s);
    all_insts += insts;
    j.begin_object()
        .field("id", uint64_t(s.kernel_id))
        .field("name", s.name)
        .field("stream", s.stream_id)
        .field("start", s.start_cycle)
        .field("cycles", s.cycles)
        .field("instructions", insts)
        .field("ipc", s.cycles ? double(insts) / double(s.cycles) : 0.0)
        .field("occupancy", s.total.achieved_occupancy())
        .field("sms", uint64_t(s.per_sm.size()));
    stall_shares(j, s.total);
    j.field("other_share", share(s.total.stall_type[size_t(StallType::Other)], s.total.stall_cycles()))
        .field("unknown_opcodes", s.total.unknown_opcodes)
        .field("projected", s.projection.applied)
        .field("simulated_cycles", s.projection.simulated_cycles)
        .end_object();
    all.add(s.total);
    end = std::max(end, s.start_cycle + s.cycles);
  }
  j.end_array().field("total_cycles", end).field("instructions", all_insts);
  j.field("other_share", share(all.stall_type[size_t(StallType::Other)], all.stall_cycles()));
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

}  // namespace sasskit::pipesim
