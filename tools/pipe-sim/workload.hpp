// The kernels of a stream as pipe-sim needs them: launch info, instruction
// table, CTAs and the optional records other tools added (cache, sched),
// plus every record in order for the pass-through. The stream is read
// through the kernel layer (formats/kernel_stream.hpp) and handed out in
// batches of complete kernels. pipe-sim spills each batch's cta records to
// a temporary file and keeps of each CTA only what placement needs
// (cta_summaries.hpp), so memory holds the batch's small records, a few
// bytes per CTA and the CTAs resident on the SMs, whatever the kernels'
// size; tests and small inputs may hold the CTAs.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "cta_summaries.hpp"
#include "decode.hpp"
#include "formats/cache_record.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/sample_record.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/nonstall.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::pipesim {

struct KernelInput {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;  // held in memory, in stream order
  CtaSummaries spilled;        // or spilled, in stream order
  // The spill file's record of spilled CTA 0; the others follow it, as a
  // kernel's cta records follow one another in the stream.
  size_t first_spilled = 0;
  std::optional<KernelCacheModel> cache;
  std::optional<KernelSchedule> sched;
  std::optional<KernelSample> sample;  // cta-sample kept only some SMs' CTAs
  size_t last_record = 0;  // index in Workload::records of the last record about this kernel
  std::string where;       // where its kernel record was read, for messages
};

// A record to pass on, or a run of consecutive cta records in the spill file.
struct Passed {
  stream::Record record;
  size_t spilled_begin = 0, spilled_end = 0;  // the run, when not empty
};

struct Workload {
  std::vector<Passed> records;         // everything read, in order
  std::vector<KernelInput> kernels;    // in launch order
  std::unique_ptr<SpillFile> spill;    // the spilled CTAs' records (none when held)
};

// How the reader keeps CTA traces.
enum class CtaIntake : uint8_t { Spill, Hold };

struct BatchOptions {
  size_t batch_bytes = 256 << 20;  // of cta records
  CtaIntake intake = CtaIntake::Spill;
  ClassifierFor classify = opcode_table_classifier;
  unsigned threads = 1;  // that count spilled CTAs' instructions as they are read
};

// Receives the batches of each member of the stream in order.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  // A member starts (0, 1, ...); its batches follow.
  virtual void member(const stream::Header&, size_t /*member*/) {}
  virtual void batch(Workload&& w) = 0;
};

// Reads every member of the stream kernel by kernel and hands complete
// kernels out in launch order, in batches of at least `batch_bytes` of cta
// records (a member's last batch may be smaller), each with every record
// read before the next kernel's record. BadInput for records the kernel
// layer refuses, for a CTA without warps, and for a stream with no kernel.
void read_batches(stream::Reader& reader, const BatchOptions& options, BatchSink& sink);

}  // namespace sasskit::pipesim
