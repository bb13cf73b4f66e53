// Application totals of a report's kernels and the application row's name;
// the metrics themselves are formats/metrics.hpp's.
#pragma once

#include <string>
#include <vector>

#include "formats/metrics.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

// The kernels' totals under their plan weights (sasskit::application_totals).
Metrics application_totals(const std::vector<KernelReport>& kernels);

// The application row's name: "(application)" or "(application, projected)".
std::string application_name(bool projected);

}  // namespace sasskit::stallreport
