// ROOT (stem-root-micro25 §3.4): invocations grouped by kernel name, each
// group split recursively in two along duration while STEM's sampled time
// tau drops (Eq. 7 vs Eq. 8).
#pragma once

#include <span>
#include <vector>

#include "profile.hpp"
#include "stem.hpp"

namespace sasskit::kselect {

struct DurationCluster {
  uint32_t name = 0;           // index into Profile::names
  std::vector<uint32_t> rows;  // profile rows, by increasing duration
  ClusterStats stats;
};

// One cluster per kernel name, in first-launch order.
std::vector<DurationCluster> group_by_name(const Profile& p);

// ROOT's clusters: every name group split while splitting lowers tau.
std::vector<DurationCluster> root_clusters(const Profile& p, double epsilon, double z);

// The exact 1-D k-means split (k = 2) of ascending `sorted`: the index s
// minimising the summed squared deviations of [0, s) and [s, n), never
// between equal values; 0 when the values are all equal.
size_t best_split(std::span<const double> sorted);

}  // namespace sasskit::kselect
