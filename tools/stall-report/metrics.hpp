// Application totals and the shares the reports print.
#pragma once

#include <vector>

#include "report.hpp"

namespace sasskit::stallreport {

// Sums the kernels' counts times their plan weights. Occupancy is the
// weight-averaged kernel occupancy (HyFiSS §VI-B); hit rates are averaged
// over the kernels' memory requests (hits over requests, as HyFiSS §VI-B).
// The sampling error is that of the summed scheduler cycles when each
// kernel's are off by its estimate (combined_sampling_error).
Metrics application_totals(const std::vector<KernelReport>& kernels);

// The signed relative error of Σ w·C over kernels whose scheduler cycles C
// (weighted by the plan weight w) each carry the relative error e of their
// CTA sample: Σ w·C / Σ (w·C / (1 + e)) − 1, where an unsampled kernel has
// e = 0. nullopt when no kernel is sampled or a sampled one has no estimate.
std::optional<double> combined_sampling_error(const std::vector<KernelReport>& kernels);

// The application row's name: "(application)" or "(application, projected)".
std::string application_name(bool projected);

// part / whole, 0 when whole is 0.
double share(double part, double whole);

}  // namespace sasskit::stallreport
