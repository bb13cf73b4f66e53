// Profilers' warp stall reasons read onto sasskit's stall types, so that a
// reference's stall distribution can be set beside the simulated one
// (stall-report(1), STALL REASONS, gives the mapping and its sources).
//
// They do not measure the same thing: ncu and nvprof count, per warp, the
// cycles (or samples) it spent in each state, several warps at a time;
// sasskit's Algorithm 1 names one root type per scheduler cycle without an
// issue. Only shares are compared, over the types both can name.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>

#include "formats/profile.hpp"
#include "formats/stats_record.hpp"

namespace sasskit {

// The stall types a profiler's reasons map to: Idle (no warp on the
// sub-core) has no warp to sample, and Other is sasskit's attribution failure.
inline constexpr std::array<StallType, 6> kComparedStallTypes = {
    StallType::MemStruct, StallType::MemData, StallType::ComStruct,
    StallType::ComData,   StallType::Sync,    StallType::Ctrl};

struct ReferenceStalls {
  std::string source;  // the metric family read, e.g. "smsp__warp_cycles_per_issue_stall_*"
  std::array<double, kStallTypes> by_type{};  // mapped reasons summed per type (Idle, Other stay 0)
  double unmapped = 0;  // reasons without a sasskit counterpart (imc_miss, misc, ...)
  double mapped() const;
};

// A kernel's value of a metric, empty when it lacks it.
using MetricGetter = std::function<std::optional<double>(const std::string& metric)>;

// The kernel's stall reasons from the first metric family it has (ncu:
// warp-state statistics, else PC sampling; nvprof: stall_*). Reasons that
// are not stalls (selected, not_selected) are left out. Empty when the
// kernel has no family, or every reason is zero.
std::optional<ReferenceStalls> reference_stalls(profile::Layout layout, const MetricGetter& get);

}  // namespace sasskit
