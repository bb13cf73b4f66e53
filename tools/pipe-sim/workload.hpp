// The kernels of a stream as pipe-sim needs them: launch info, instruction
// table, CTAs and the optional records other tools added (cache, sched),
// plus every record in order for the pass-through.
#pragma once

#include <optional>
#include <vector>

#include "formats/cache_record.hpp"
#include "formats/records.hpp"
#include "libcommon/cta_schedule.hpp"

namespace sasskit::pipesim {

struct KernelInput {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;
  std::optional<KernelCacheModel> cache;
  std::optional<KernelSchedule> sched;
  size_t last_record = 0;  // index of the last record about this kernel
};

struct Workload {
  std::vector<stream::Record> records;  // everything read, in order
  std::vector<KernelInput> kernels;     // in launch order
};

// Reads the whole stream. BadInput for records that contradict each other,
// and for a stream with no kernel at all.
Workload read_workload(stream::Reader& reader);

}  // namespace sasskit::pipesim
