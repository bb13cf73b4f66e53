// Application totals and the shares the reports print.
#pragma once

#include <vector>

#include "report.hpp"

namespace sasskit::stallreport {

// Sums the kernels' counts times their plan weights. Occupancy is the
// weight-averaged kernel occupancy (HyFiSS §VI-B); hit rates are averaged
// over the kernels' memory requests (hits over requests, as HyFiSS §VI-B).
Metrics application_totals(const std::vector<KernelReport>& kernels);

// The application row's name: "(application)" or "(application, projected)".
std::string application_name(bool projected);

// part / whole, 0 when whole is 0.
double share(double part, double whole);

}  // namespace sasskit::stallreport
