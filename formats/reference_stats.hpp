// Measured (or other simulators') per-kernel statistics that stall-report
// validates against: Nsight Compute CSV, nvprof CSV, Accel-Sim statistics
// (accelsim_log.csv and the simulator's text log) or a plain CSV.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace sasskit {

// The metrics a reference may give. Rates and occupancy are fractions (0..1).
enum class RefMetric : uint8_t {
  Cycles,        // kernel active cycles
  Instructions,  // warp instructions
  Ipc,           // warp instructions per cycle (GPU)
  SmIpc,         // warp instructions per active SM cycle (nvprof/ncu "ipc")
  GmemRequests,  // global load + store requests
  L1HitRate,
  L2HitRate,
  Occupancy,     // achieved occupancy
  Count
};
inline constexpr size_t kRefMetrics = static_cast<size_t>(RefMetric::Count);
const char* ref_metric_name(RefMetric m);  // "cycles", "instructions", ... (plain CSV column names)
// Percentages are compared by absolute error, counts by relative error.
bool ref_metric_is_fraction(RefMetric m);

struct ReferenceKernel {
  std::optional<uint64_t> id;  // kernel id (Accel-Sim kernel-N numbering) when known
  std::string name;            // empty when the reference has no names
  std::array<std::optional<double>, kRefMetrics> metrics{};
};

struct Reference {
  std::string format;  // "ncu", "nvprof", "accelsim-csv", "accelsim-log", "plain"
  std::vector<ReferenceKernel> kernels;
};

// Reads `in` (named `name` in messages), recognising the layout from its
// first lines. An unknown layout is BadInput naming the columns it saw.
Reference read_reference(std::istream& in, const std::string& name);
Reference load_reference(const std::string& path);

// Per-format readers, given the whole text split in lines.
Reference read_nvprof(const std::vector<std::string>& lines, const std::string& name);
Reference read_ncu(const std::vector<std::string>& lines, const std::string& name);
Reference read_accelsim_csv(const std::vector<std::string>& lines, const std::string& name);
Reference read_accelsim_log(const std::vector<std::string>& lines, const std::string& name);
Reference read_plain(const std::vector<std::string>& lines, const std::string& name);

// A number as profilers write it ("1,234.5", "96.4%", "Low (1)" is not one).
std::optional<double> parse_reference_number(std::string_view text);

}  // namespace sasskit
