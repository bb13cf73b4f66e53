#include "formats/reference_stalls.hpp"

#include <span>

namespace sasskit {

namespace {

// A profiler's reason and the stall type that names the same cause; none
// where sasskit models no such cause.
struct StallReason {
  const char* reason;
  std::optional<StallType> type;
};

using T = StallType;

// Nsight Compute's warp stall reasons (Kernel Profiling Guide, "Warp Stall
// Reasons"); stall-report(1) gives each one's description.
constexpr StallReason kNcuReasons[] = {
    {"long_scoreboard", T::MemData},       // L1TEX (global, local, texture) result
    {"short_scoreboard", T::MemData},      // MIO result: shared memory (also MUFU)
    {"wait", T::ComData},                  // fixed-latency dependency
    {"math_pipe_throttle", T::ComStruct},  // execution pipe busy
    {"dispatch_stall", T::ComStruct},      // dispatcher held back
    {"mio_throttle", T::MemStruct},        // MIO instruction queue full
    {"lg_throttle", T::MemStruct},         // local/global queue full
    {"tex_throttle", T::MemStruct},        // texture queue full
    {"drain", T::MemStruct},               // stores draining after EXIT
    {"barrier", T::Sync},
    {"membar", T::Sync},
    {"branch_resolving", T::Ctrl},
    {"no_instructions", T::Ctrl},          // fetch, instruction-cache miss
    {"imc_miss", std::nullopt},            // immediate-constant cache: not modelled
    {"misc", std::nullopt},
    {"sleeping", std::nullopt},
    {"allocation_stall", std::nullopt},
    {"tile_allocation_stall", std::nullopt},
};

// nvprof's stall_* metrics (CUDA Profiler User's Guide, metrics reference;
// CUPTI's PC-sampling stall reasons).
constexpr StallReason kNvprofReasons[] = {
    {"inst_fetch", T::Ctrl},
    {"exec_dependency", T::ComData},
    {"memory_dependency", T::MemData},
    {"texture", T::MemStruct},
    {"sync", T::Sync},
    {"pipe_busy", T::ComStruct},
    {"memory_throttle", T::MemStruct},
    {"constant_memory_dependency", std::nullopt},  // constant cache: not modelled
    {"other", std::nullopt},
    {"sleeping", std::nullopt},
};

// Metric families spelling a reason, most preferred first: warp-state
// statistics (cycles of every warp) before PC sampling (a sample of them).
struct Family {
  const char* prefix;
  const char* suffix;
};
constexpr Family kNcuFamilies[] = {
    {"smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"},  // Nsight Compute 2020 and later
    {"smsp__warp_issue_stalled_", "_per_warp_active.pct"},
    {"smsp__warp_cycles_per_issue_stall_", ""},                         // before 2020
    {"smsp__pcsamp_warps_issue_stalled_", ""},
    {"smsp__pcsamp_warp_stall_", ""},
};
constexpr Family kNvprofFamilies[] = {{"stall_", ""}};

std::optional<ReferenceStalls> read_family(const Family& f, std::span<const StallReason> reasons,
                                           const MetricGetter& get) {
  ReferenceStalls s;
  s.source = std::string(f.prefix) + "*" + f.suffix;
  bool any = false;
  for (const StallReason& r : reasons) {
    auto v = get(std::string(f.prefix) + r.reason + f.suffix);
    if (!v) continue;
    any = true;
    (r.type ? s.by_type[size_t(*r.type)] : s.unmapped) += *v;
  }
  if (!any) return std::nullopt;
  return s;
}

}  // namespace

double ReferenceStalls::mapped() const {
  double sum = 0;
  for (StallType t : kComparedStallTypes) sum += by_type[size_t(t)];
  return sum;
}

std::optional<ReferenceStalls> reference_stalls(profile::Layout layout, const MetricGetter& get) {
  const bool ncu = layout == profile::Layout::NcuRaw || layout == profile::Layout::NcuDetails;
  const bool nvprof = layout == profile::Layout::NvprofTrace || layout == profile::Layout::NvprofSummary;
  if (!ncu && !nvprof) return std::nullopt;
  const auto reasons = ncu ? std::span<const StallReason>(kNcuReasons) : std::span<const StallReason>(kNvprofReasons);
  const auto families = ncu ? std::span<const Family>(kNcuFamilies) : std::span<const Family>(kNvprofFamilies);
  for (const Family& f : families)
    if (auto s = read_family(f, reasons, get)) return s->mapped() + s->unmapped > 0 ? s : std::nullopt;
  return std::nullopt;
}

}  // namespace sasskit
