#include "metrics.hpp"

namespace sasskit::stallreport {

std::string application_name(bool projected) { return projected ? "(application, projected)" : "(application)"; }

Metrics application_totals(const std::vector<KernelReport>& kernels) {
  std::vector<WeightedMetrics> weighted;
  for (const KernelReport& k : kernels) weighted.push_back({&k.m, k.weight});
  return sasskit::application_totals(weighted);
}

}  // namespace sasskit::stallreport
