#include "metrics.hpp"

#include <cmath>

namespace sasskit::stallreport {

std::string application_name(bool projected) { return projected ? "(application, projected)" : "(application)"; }

std::optional<double> relative_error(const Metrics& m, std::optional<double> plan_bound) {
  if (!m.sampling_error && !m.projection_error && !plan_bound) return std::nullopt;
  return std::fabs(m.sampling_error.value_or(0)) + m.projection_error.value_or(0) + plan_bound.value_or(0);
}

Metrics application_totals(const std::vector<KernelReport>& kernels) {
  std::vector<WeightedMetrics> weighted;
  for (const KernelReport& k : kernels) weighted.push_back({&k.m, k.weight});
  return sasskit::application_totals(weighted);
}

}  // namespace sasskit::stallreport
