// pipe-sim's outputs: the stream with a stats record after each kernel's
// last record, a JSON summary per kernel, and the per-cycle stall trace.
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "formats/sample_record.hpp"
#include "simulate.hpp"

namespace sasskit::pipesim {

// Passes every record through in order (earlier stats records are replaced;
// cta records only `with_ctas`) and adds each kernel's stats record after
// that kernel's last record.
void write_stream(stream::Writer& out, const Workload& w, const std::vector<KernelResult>& results,
                  bool with_ctas = true);

struct StreamOutput {
  BatchOptions batches;
  stream::Writer* writer = nullptr;  // null: results only
  bool with_ctas = true;             // false: --stats-only
  // When set: each kernel's sample record (cta-sample), in result order.
  std::vector<std::optional<KernelSample>>* samples = nullptr;
};

// Simulates the stream batch by batch (opcode tables from configs/opcodes)
// and, with a writer, writes each batch as write_stream does once it is
// done, one output member per input member. Returns every kernel's result:
// stats, and the SMs' stall traces when tracing.
std::vector<KernelResult> simulate_stream(stream::Reader& reader, const RunOptions& opt, const StreamOutput& out);

// {"gpu", "kernels": [...], "application": {...}} under stall-report(1)'s
// column names (pipe-sim(1), JSON SUMMARY): counts projected by each
// kernel's sample scale (`samples`, in result order; none: not sampled)
// and, under PKP, instructions by the projection.
void write_json_summary(std::ostream& out, const std::string& gpu, const std::vector<KernelResult>& results,
                        const std::vector<std::optional<KernelSample>>& samples = {});

// Tab-separated: kernel, sm, cycle, subcore, what (issued or the stall
// type), event, pc (hex, or - when none).
void write_stall_trace(std::ostream& out, const std::vector<KernelResult>& results);

}  // namespace sasskit::pipesim
