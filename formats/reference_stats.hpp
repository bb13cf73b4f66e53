// Measured (or other simulators') per-kernel statistics that stall-report
// validates against, taken from any profile layout of formats/profile.hpp
// that carries them: Nsight Compute, nvprof, Accel-Sim or a plain CSV.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "formats/profile.hpp"
#include "formats/reference_stalls.hpp"

namespace sasskit {

// The metrics a reference may give. Rates, occupancy and stall shares are
// fractions (0..1).
enum class RefMetric : uint8_t {
  Cycles,        // kernel cycles (the reference's elapsed cycles)
  Instructions,  // warp instructions
  Ipc,           // warp instructions per cycle (GPU)
  SmIpc,         // warp instructions per active SM cycle (nvprof/ncu "ipc")
  GmemRequests,  // global load + store requests
  L1HitRate,
  L2HitRate,
  Occupancy,     // achieved occupancy
  SmActiveCycles,    // cycles with a warp resident, summed over SMs
  L2Sectors,         // sectors the SMs sent to L2, reads and writes
  L2ReadSectors,     // of those, reads (loads; atomics as each source counts them)
  L2WriteSectors,    // of those, writes (stores)
  DramReadSectors,
  DramWriteSectors,
  SmemConflicts,     // shared-memory bank conflicts (extra wavefronts / cycles)
  // Share of the stall cycles of each compared stall type
  // (formats/reference_stalls.hpp), in kComparedStallTypes order.
  StallMemStruct,
  StallMemData,
  StallComStruct,
  StallComData,
  StallSync,
  StallCtrl,
  Count
};
inline constexpr size_t kRefMetrics = static_cast<size_t>(RefMetric::Count);
const char* ref_metric_name(RefMetric m);  // "cycles", "instructions", ... (plain CSV column names)
// Fractions are compared by absolute error, counts and ratios by relative error.
bool ref_metric_is_fraction(RefMetric m);
// The stall type of a stall-share metric; empty for the others.
std::optional<StallType> ref_metric_stall_type(RefMetric m);

struct ReferenceKernel {
  std::optional<uint64_t> id;  // 1-based launch number when the reference numbers launches
  std::string name;            // as the reference writes it; empty when it has none
  uint64_t launches = 1;       // > 1 for a summary row (its metrics are averages)
  std::string application;     // the process it ran in, where the file names several (ncu)
  std::array<std::optional<double>, kRefMetrics> metrics{};
  // Its stall reasons as read (the Stall* metrics are their shares).
  std::optional<ReferenceStalls> stalls;
};

struct Reference {
  std::string format;  // the profile layout, profile::layout_name()
  std::vector<ReferenceKernel> kernels;
};

// The applications a reference holds, in order of their first kernel: one
// "" when it names no process or only one. ncu names each launch's process
// (Process Name, or "NAME [PID]" where processes of one name differ).
std::vector<std::string> reference_applications(const Reference& ref);
// The kernels of one application, numbered 1, 2, ... in the file's order, as
// a trace of that application numbers its launches.
Reference application_reference(const Reference& ref, const std::string& application);

// The metrics of a profile read by formats/profile.hpp. BadInput when the
// layout carries none (a durations-only table) or a metric is not a number.
Reference to_reference(const profile::Profile& p);
// read_profile / load_profile, then to_reference.
Reference read_reference(std::istream& in, const std::string& name, const profile::ReadOptions& options = {});
Reference load_reference(const std::string& path, const profile::ReadOptions& options = {});

}  // namespace sasskit
