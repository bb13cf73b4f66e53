// pipe-sim's outputs: the stream with a stats record after each kernel's
// last record, a JSON summary per kernel, and the per-cycle stall trace.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "formats/sample_record.hpp"
#include "formats/sink.hpp"
#include "libcommon/model_in_use.hpp"
#include "simulate.hpp"

namespace sasskit::pipesim {

// A simulated kernel as pipe-sim hands it to its sink: its result and its
// sample record (cta-sample), if any.
struct SimulatedKernel {
  const KernelResult& result;
  const std::optional<KernelSample>& sample;
};

// Where pipe-sim's results go (formats/sink.hpp).
using Sink = stream::Sink<SimulatedKernel>;

// The stream: every record passes through in order (earlier stats records
// are replaced; cta records only `with_ctas`), each kernel's stats record
// after that kernel's last record.
std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name, const stream::Header& upstream,
                                  stream::Stage self, bool with_ctas);
// The JSON summary of every kernel (write_json_summary), at finish().
std::unique_ptr<Sink> json_sink(std::ostream& out, const std::string& gpu, std::vector<stream::Stage> provenance);

// Hands the sink every record of the batch in order and each kernel's
// result after that kernel's last record.
void write_batch(Sink& sink, const Workload& w, const std::vector<KernelResult>& results);

struct StreamOutput {
  BatchOptions batches;
  Sink* sink = nullptr;  // null: results only
};

// Simulates the stream batch by batch (opcode tables from configs/opcodes)
// and, with a sink, hands it each batch as write_batch does once it is
// done, one output member per input member. Returns every kernel's result:
// stats, and the SMs' stall traces when tracing.
std::vector<KernelResult> simulate_stream(stream::Reader& reader, const RunOptions& opt, const StreamOutput& out);

// A cache key that only hit rates depend on (an L2 size sweep, given to
// pipe-sim) changes nothing where no cache record (rd-cache's) gives a kernel
// its hit rates: warns once, naming the keys the command line changed, when
// a kernel of `results`, read from `input`, had none.
void warn_if_hit_rate_keys_ignored(const std::vector<KernelResult>& results, const ModelInUse& model,
                                   const std::string& input);

// {"gpu", "kernels": [...], "application": {...}, "provenance": [...]}
// under sasskit(7)'s column names (pipe-sim(1), JSON SUMMARY): counts
// projected by each kernel's sample scale (`samples`, in result order;
// none: not sampled) and, under PKP, instructions by the projection;
// `provenance` as formats/stream_json.hpp's report_provenance gives it.
void write_json_summary(std::ostream& out, const std::string& gpu, const std::vector<KernelResult>& results,
                        const std::vector<std::optional<KernelSample>>& samples = {},
                        const std::vector<stream::Stage>& provenance = {});

// Tab-separated: kernel, sm, cycle, subcore, what (issued or the stall
// type), event, pc (hex, or - when none).
void write_stall_trace(std::ostream& out, const std::vector<KernelResult>& results);

}  // namespace sasskit::pipesim
