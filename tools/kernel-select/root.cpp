#include "root.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace sasskit::kselect {
namespace {

// Means and variances of any run of ascending values from prefix sums,
// shifted by the middle value to keep the sums of squares well conditioned.
class RunStats {
 public:
  explicit RunStats(std::span<const double> v) : shift_(v.empty() ? 0 : v[v.size() / 2]) {
    s1_.resize(v.size() + 1, 0);
    s2_.resize(v.size() + 1, 0);
    for (size_t i = 0; i < v.size(); ++i) {
      double d = v[i] - shift_;
      s1_[i + 1] = s1_[i] + d;
      s2_[i + 1] = s2_[i] + d * d;
    }
  }
  // Summed squared deviation from the mean of [lo, hi).
  double sse(size_t lo, size_t hi) const {
    double n = double(hi - lo), s = s1_[hi] - s1_[lo];
    return std::max(0.0, (s2_[hi] - s2_[lo]) - s * s / n);
  }
  ClusterStats stats(size_t lo, size_t hi) const {
    double n = double(hi - lo);
    return ClusterStats{hi - lo, shift_ + (s1_[hi] - s1_[lo]) / n, std::sqrt(sse(lo, hi) / n)};
  }

 private:
  double shift_;
  std::vector<double> s1_, s2_;
};

size_t best_split(std::span<const double> v, const RunStats& run, size_t lo, size_t hi) {
  size_t best = 0;
  double best_sse = 0;
  for (size_t s = lo + 1; s < hi; ++s) {
    if (v[s - 1] == v[s]) continue;
    double sse = run.sse(lo, s) + run.sse(s, hi);
    if (best == 0 || sse < best_sse) best = s, best_sse = sse;
  }
  return best;
}

double tau(const std::vector<ClusterStats>& clusters, double epsilon, double z) {
  return stem_tau(clusters, stem_sizes(clusters, epsilon, z));
}

// Splits the sorted run of one name group; appends the final ranges.
void split_group(std::span<const double> v, const RunStats& run, double epsilon, double z,
                 std::vector<std::pair<size_t, size_t>>& ranges) {
  std::vector<std::pair<size_t, size_t>> todo{{0, v.size()}};
  while (!todo.empty()) {
    auto [lo, hi] = todo.back();
    todo.pop_back();
    size_t s = best_split(v, run, lo, hi);
    if (s != 0) {
      double old_tau = tau({run.stats(lo, hi)}, epsilon, z);
      double new_tau = tau({run.stats(lo, s), run.stats(s, hi)}, epsilon, z);
      if (new_tau < old_tau) {
        todo.emplace_back(s, hi);  // left half is handled first
        todo.emplace_back(lo, s);
        continue;
      }
    }
    ranges.emplace_back(lo, hi);
  }
}

// Sorts the group's rows by (duration, row) and returns the durations.
std::vector<double> sorted_durations(const Profile& p, DurationCluster& g) {
  std::vector<std::pair<double, uint32_t>> keyed(g.rows.size());
  for (size_t i = 0; i < keyed.size(); ++i) keyed[i] = {p.duration[g.rows[i]], g.rows[i]};
  std::sort(keyed.begin(), keyed.end());
  std::vector<double> v(keyed.size());
  for (size_t i = 0; i < v.size(); ++i) std::tie(v[i], g.rows[i]) = keyed[i];
  return v;
}

}  // namespace

size_t best_split(std::span<const double> sorted) {
  return best_split(sorted, RunStats(sorted), 0, sorted.size());
}

std::vector<DurationCluster> group_by_name(const Profile& p) {
  std::vector<DurationCluster> groups(p.names.size());
  std::vector<uint32_t> count(p.names.size(), 0);
  for (uint32_t n : p.name) ++count[n];
  for (uint32_t n = 0; n < groups.size(); ++n) {
    groups[n].name = n;
    groups[n].rows.reserve(count[n]);
  }
  for (uint32_t r = 0; r < p.size(); ++r) groups[p.name[r]].rows.push_back(r);
  for (auto& g : groups) {
    std::vector<double> v(g.rows.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = p.duration[g.rows[i]];
    g.stats = RunStats(v).stats(0, v.size());
  }
  return groups;
}

std::vector<DurationCluster> root_clusters(const Profile& p, double epsilon, double z) {
  std::vector<DurationCluster> out;
  for (auto& g : group_by_name(p)) {
    std::vector<double> v = sorted_durations(p, g);
    RunStats run(v);
    std::vector<std::pair<size_t, size_t>> ranges;
    split_group(v, run, epsilon, z, ranges);
    for (auto [lo, hi] : ranges) {
      DurationCluster c{g.name, std::vector<uint32_t>(g.rows.begin() + lo, g.rows.begin() + hi),
                        run.stats(lo, hi)};
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace sasskit::kselect
