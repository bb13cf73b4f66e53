// The kernels of a stream as pipe-sim needs them: launch info, instruction
// table, CTAs and the optional records other tools added (cache, sched),
// plus every record in order for the pass-through. The stream is read in
// batches of complete kernels, so memory holds a batch, not the stream.
#pragma once

#include <optional>
#include <set>
#include <vector>

#include "formats/cache_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "libcommon/cta_schedule.hpp"

namespace sasskit::pipesim {

struct KernelInput {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;
  std::optional<KernelCacheModel> cache;
  std::optional<KernelSchedule> sched;
  std::optional<KernelSample> sample;  // cta-sample kept only some SMs' CTAs
  size_t last_record = 0;  // index in Workload::records of the last record about this kernel
};

struct Workload {
  std::vector<stream::Record> records;  // everything read, in order
  std::vector<KernelInput> kernels;     // in launch order
};

// A kernel is complete when the next kernel's `kernel` record arrives or the
// stream ends (formats/STREAM.md, Order). Complete kernels are handed out in
// launch order, in batches of at least `batch_bytes` of CTA traces (the last
// batch may be smaller), each with every record read before the next
// kernel's record.
class WorkloadReader {
 public:
  WorkloadReader(stream::Reader& reader, size_t batch_bytes);
  // The next batch; false once the stream is exhausted. BadInput for records
  // that contradict each other, for a record about a kernel that is already
  // complete, and for a stream with no kernel at all.
  bool next(Workload& batch);

 private:
  void add(stream::Record&& r);
  KernelInput& open_kernel(uint32_t id, const stream::Record& r);
  template <class T>
  void attach(const stream::Record& r, size_t at, std::optional<T> KernelInput::*field);

  stream::Reader& reader_;
  size_t batch_bytes_;
  Workload open_;              // read, not yet handed out
  size_t complete_bytes_ = 0;  // CTA trace bytes of open_'s complete kernels
  std::set<uint32_t> seen_;    // ids of every kernel record read
  std::optional<stream::Record> held_;  // a kernel record that starts the next batch
  bool ended_ = false;
};

// The whole stream in one batch (tests and small inputs).
Workload read_workload(stream::Reader& reader);

}  // namespace sasskit::pipesim
