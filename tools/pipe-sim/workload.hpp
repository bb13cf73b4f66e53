// The kernels of a stream as pipe-sim needs them: launch info, instruction
// table, CTAs and the optional records other tools added (cache, sched),
// plus every record in order for the pass-through. The stream is read in
// batches of complete kernels. pipe-sim spills each batch's CTA records to
// a temporary file and keeps of each CTA only what placement needs, so
// memory holds the batch's small records and the CTAs resident on the SMs,
// whatever the kernels' size; tests and small inputs may hold the CTAs.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "decode.hpp"
#include "formats/cache_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/nonstall.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::pipesim {

// A CTA whose record waits in the batch's spill file.
struct SpilledCta {
  Dim3 cta;
  size_t record = 0;   // index in the spill file
  uint64_t insts = 0;  // dynamic warp instructions
  UnitCounts units{};  // the same by pipeline unit (the modelled schedule's CTA time)
};

struct KernelInput {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;        // held in memory, in stream order
  std::vector<SpilledCta> spilled;   // or spilled, in stream order
  std::optional<KernelCacheModel> cache;
  std::optional<KernelSchedule> sched;
  std::optional<KernelSample> sample;  // cta-sample kept only some SMs' CTAs
  size_t last_record = 0;  // index in Workload::records of the last record about this kernel
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

// A kernel is complete when the next kernel's `kernel` record arrives or the
// stream ends (formats/STREAM.md, Order). Complete kernels are handed out in
// launch order, in batches of at least `batch_bytes` of CTA records (the
// last batch may be smaller), each with every record read before the next
// kernel's record.
class WorkloadReader {
 public:
  WorkloadReader(stream::Reader& reader, size_t batch_bytes, CtaIntake intake = CtaIntake::Spill,
                 ClassifierFor classify = opcode_table_classifier);
  // The next batch; false once the stream is exhausted. BadInput for records
  // that contradict each other, for a record about a kernel that is already
  // complete, and for a stream with no kernel at all.
  bool next(Workload& batch);

 private:
  void add(stream::Record&& r);
  void add_insts(const stream::Record& r, size_t at);
  void add_cta(stream::Record&& r, size_t at);
  void start_batch();
  KernelInput& open_kernel(uint32_t id, const stream::Record& r);
  template <class T>
  void attach(const stream::Record& r, size_t at, std::optional<T> KernelInput::*field);

  stream::Reader& reader_;
  size_t batch_bytes_;
  CtaIntake intake_;
  ClassifierFor classify_;
  Workload open_;              // read, not yet handed out
  size_t open_bytes_ = 0;      // CTA record bytes of open_'s kernels
  std::vector<UnitClass> units_;  // per table entry of the open kernel
  std::set<uint32_t> seen_;    // ids of every kernel record read
  std::optional<stream::Record> held_;  // a kernel record that starts the next batch
  bool ended_ = false;
};

// The whole stream in one batch, CTAs held (tests and small inputs).
Workload read_workload(stream::Reader& reader);

}  // namespace sasskit::pipesim
