// Application totals and the shares the reports print.
#pragma once

#include <vector>

#include "formats/sample_record.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

// Sums the kernels' counts times their plan weights. Occupancy is the
// weight-averaged kernel occupancy (HyFiSS §VI-B); hit rates are averaged
// over the kernels' memory requests (hits over requests, as HyFiSS §VI-B).
// The sampling error is that of the summed scheduler cycles when each
// kernel's are off by its estimate (combined_sampling_error).
Metrics application_totals(const std::vector<KernelReport>& kernels);

// The sampling error of the kernels' scheduler cycles C weighted by their
// plan weights w (formats/sample_record.hpp): Σ w·C / Σ (w·C / (1 + e)) − 1.
std::optional<double> combined_sampling_error(const std::vector<KernelReport>& kernels);

// The application row's name: "(application)" or "(application, projected)".
std::string application_name(bool projected);

// part / whole, 0 when whole is 0.
double share(double part, double whole);

}  // namespace sasskit::stallreport
