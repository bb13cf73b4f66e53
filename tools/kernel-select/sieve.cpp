// Sieve (stem-root-micro25 §6.2, Table 1): per kernel name, the coefficient
// of variation of instruction counts sorts the invocations into tiers.
// Tier 1 (CoV = 0): one cluster. Tier 2 (CoV < limit, 0.4): one cluster
// represented by the first invocation with the dominant CTA count. Tier 3:
// split at the minima of a Gaussian kernel density estimate of the counts,
// first chronological invocation of each part.
#include <algorithm>
#include <cmath>
#include <map>

#include "libcommon/diag.hpp"
#include "methods.hpp"
#include "root.hpp"

namespace sasskit::kselect {
namespace {

constexpr size_t kGrid = 512;

double coefficient_of_variation(const Profile& p, const std::vector<uint32_t>& rows) {
  double sum = 0, sq = 0;
  for (uint32_t r : rows) sum += p.insts[r];
  const double mean = sum / rows.size();
  for (uint32_t r : rows) sq += (p.insts[r] - mean) * (p.insts[r] - mean);
  return mean == 0 ? 0 : std::sqrt(sq / rows.size()) / mean;
}

uint32_t dominant_cta_row(const Profile& p, const std::vector<uint32_t>& rows) {
  if (p.ctas.empty()) return rows.front();
  std::map<uint64_t, uint64_t> count;
  for (uint32_t r : rows) ++count[p.ctas[r]];
  uint64_t dominant = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) {
                        return a.second < b.second;
                      })->first;
  return *std::find_if(rows.begin(), rows.end(), [&](uint32_t r) { return p.ctas[r] == dominant; });
}

// Split values: the density minima of a binned Gaussian KDE with
// Silverman's rule-of-thumb bandwidth.
std::vector<double> density_minima(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const double lo = v.front(), hi = v.back(), n = double(v.size());
  if (hi == lo) return {};
  double mean = 0, sq = 0;
  for (double x : v) mean += x / n;
  for (double x : v) sq += (x - mean) * (x - mean);
  const double iqr = v[size_t(0.75 * (n - 1))] - v[size_t(0.25 * (n - 1))];
  double spread = std::sqrt(sq / n);
  if (iqr > 0) spread = std::min(spread, iqr / 1.34);
  const double step = (hi - lo) / (kGrid - 1);
  const double h = std::max(0.9 * spread * std::pow(n, -0.2), step);
  std::vector<double> bins(kGrid, 0), density(kGrid, 0);
  for (double x : v) bins[size_t(std::lround((x - lo) / step))] += 1;
  const long reach = long(std::ceil(4 * h / step));
  for (long g = 0; g < long(kGrid); ++g)
    for (long b = std::max(0L, g - reach); b <= std::min(long(kGrid) - 1, g + reach); ++b)
      if (bins[b] > 0) density[g] += bins[b] * std::exp(-0.5 * std::pow((g - b) * step / h, 2));
  std::vector<double> cuts;
  for (size_t g = 1; g + 1 < kGrid; ++g)
    if (density[g] < density[g - 1] && density[g] <= density[g + 1]) cuts.push_back(lo + g * step);
  return cuts;
}

}  // namespace

Selector sieve_selector(const Profile& p, const MethodOptions& o) {
  if (p.insts.empty())
    fail_input(p.source, "method sieve needs instruction counts (ncu smsp__inst_executed.sum, an "
                         "'insts' column or a trace stream)");
  std::vector<std::vector<uint32_t>> clusters;
  std::vector<uint32_t> reps, names;
  for (const auto& g : group_by_name(p)) {
    const double cov = coefficient_of_variation(p, g.rows);
    if (cov == 0 || cov < o.sieve_cov) {
      clusters.push_back(g.rows);
      reps.push_back(cov == 0 ? g.rows.front() : dominant_cta_row(p, g.rows));
      names.push_back(g.name);
      continue;
    }
    std::vector<double> counts;
    for (uint32_t r : g.rows) counts.push_back(p.insts[r]);
    const auto cuts = density_minima(counts);
    std::vector<std::vector<uint32_t>> parts(cuts.size() + 1);
    for (uint32_t r : g.rows)
      parts[std::upper_bound(cuts.begin(), cuts.end(), p.insts[r]) - cuts.begin()].push_back(r);
    for (auto& part : parts) {
      if (part.empty()) continue;
      reps.push_back(part.front());
      clusters.push_back(std::move(part));
      names.push_back(g.name);
    }
  }
  auto labels = cluster_labels(p, names);
  return [&p, clusters, reps, labels, limit = o.sieve_cov](uint64_t) {
    PlanBuilder b(p, "sieve");
    for (size_t c = 0; c < clusters.size(); ++c) b.pick(b.add_cluster(labels[c], clusters[c], 1), reps[c]);
    return b.finish({{"cov_limit", limit}});
  };
}

}  // namespace sasskit::kselect
