// Lloyd's k-means with k-means++ seeding, for PKA's K sweep.
#pragma once

#include <cstdint>
#include <vector>

#include "plan_builder.hpp"

namespace sasskit::kselect {

// Points are the n rows of a row-major n x dims matrix (dims may be 0: all
// points equal). Returns the cluster of each point (0 .. k-1; a cluster may
// end up empty). Stops when no point changes cluster or after `max_iterations`.
std::vector<uint32_t> kmeans(const std::vector<double>& points, size_t n, size_t dims, uint32_t k,
                             Rng& rng, unsigned max_iterations = 300);

// Sum of squared distances of the points to the centre of their cluster
// (scikit-learn's inertia_), for choosing among restarts.
double inertia(const std::vector<double>& points, size_t n, size_t dims, const std::vector<uint32_t>& cluster,
               uint32_t k);

}  // namespace sasskit::kselect
