#include "bandwidth_lending.hpp"

#include <algorithm>

namespace sasskit::pipesim {

std::vector<double> lend_bandwidth(const std::vector<KernelUse>& kernels, unsigned sharing) {
  std::vector<double> equal;
  unsigned running = 0;
  for (const KernelUse& k : kernels) {
    equal.push_back(double(k.segments) / std::max(1u, sharing));
    running += k.segments;
  }
  std::vector<double> parts = equal;
  for (size_t j = 0; j < kernels.size(); ++j) {
    const KernelUse& lender = kernels[j];
    const unsigned others = running - lender.segments;
    if (!lender.used || *lender.used >= equal[j] || others == 0) continue;
    const double unused = equal[j] - *lender.used;
    for (size_t k = 0; k < kernels.size(); ++k)
      if (k != j) parts[k] += unused * kernels[k].segments / others;
  }
  return parts;
}

}  // namespace sasskit::pipesim
