// What every method produces, and the pieces they share: a seeded random
// source whose sequence is the same on every platform, and a builder that
// turns clusters and picks into a Plan.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "formats/plan_record.hpp"
#include "profile.hpp"

namespace sasskit::kselect {

// A plan and, parallel to plan.entries, the profile row of each entry.
struct Selection {
  Plan plan;
  std::vector<uint32_t> rows;
};

// mt19937_64 (its sequence is fixed by the C++ standard) with an unbiased
// bounded draw of our own, since std::uniform_int_distribution differs
// between standard libraries.
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  uint64_t below(uint64_t n);  // uniform in [0, n), n > 0
  double unit();               // uniform in [0, 1)

 private:
  std::mt19937_64 engine_;
};

class PlanBuilder {
 public:
  PlanBuilder(const Profile& p, std::string method);
  // A cluster of profile rows from which `samples` picks will be drawn.
  uint32_t add_cluster(std::string label, std::span<const uint32_t> rows, uint32_t samples);
  // One pick of `row` for `cluster`: it weighs N / m of that cluster.
  void pick(uint32_t cluster, uint32_t row);
  Selection finish(std::map<std::string, double> params, std::optional<double> error_bound = {});

 private:
  const Profile& p_;
  Plan plan_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> picks_;  // row -> (cluster, picks)
};

// Every launch kept, each its own cluster of one with weight 1: the plan of
// a profile too small for `method` to sample (make_selector).
Selection every_launch(const Profile& p, std::string method);

// The first (chronological) row among `rows`.
uint32_t first_row(std::span<const uint32_t> rows);

// "name" for a kernel with one cluster, "name#k" for its k-th of several.
std::vector<std::string> cluster_labels(const Profile& p, const std::vector<uint32_t>& cluster_names);

}  // namespace sasskit::kselect
