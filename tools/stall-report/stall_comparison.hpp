// The simulated stall distribution beside a profiler's (formats/
// reference_stalls.hpp): shares of the stall cycles of the types both can
// name, and their total variation distance.
#pragma once

#include <optional>
#include <ostream>
#include <vector>

#include "libcommon/json.hpp"
#include "validate.hpp"

namespace sasskit::stallreport {

// `type`'s share of the simulated stall cycles of the compared types; empty
// when the kernel has none of those, or `type` is not compared.
std::optional<double> simulated_stall_share(const Metrics& m, StallType type);

// Empty when either side has no stall cycles of the compared types.
std::optional<StallComparison> compare_stalls(const KernelReport& k, const ReferenceKernel& r);

// Two rows per kernel (simulated, reference) with the shares, what each side
// left out, and the distance.
void write_stall_comparison_text(std::ostream& out, const std::vector<StallComparison>& stalls);
void write_stall_comparison_json(JsonWriter& w, const std::vector<StallComparison>& stalls);

}  // namespace sasskit::stallreport
