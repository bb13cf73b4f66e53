// Principal Kernel Selection (pka-micro21 §3.1): standardised features, PCA
// keeping components up to a share of the variance, k-means for K = 1 ..
// max_k, the smallest K whose projection (first chronological kernel of each
// cluster x cluster size) is within the target error of the measured total.
#pragma once

#include <vector>

#include "profile.hpp"

namespace sasskit::kselect {

// Rows of the profile's features projected on the principal components
// that explain at least `variance` of the standardised features' variance
// (row-major, n x the returned dims).
std::vector<double> principal_components(const Profile& p, double variance, size_t& dims);

}  // namespace sasskit::kselect
