// Application totals of a report's kernels and the application row's name;
// the metrics themselves are formats/metrics.hpp's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/metrics.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

// The kernels' totals under their plan weights (sasskit::application_totals).
Metrics application_totals(const std::vector<KernelReport>& kernels);

// The relative error estimate of `m`'s cycles, where one is known: |CTA
// sampling error| + PKP's projection error + `plan_bound` (a plan's bound,
// on application rows). They add: none is assumed to cancel another.
std::optional<double> relative_error(const Metrics& m, std::optional<double> plan_bound = std::nullopt);

// The application row's name: "(application)" or "(application, projected)".
std::string application_name(bool projected);

}  // namespace sasskit::stallreport
