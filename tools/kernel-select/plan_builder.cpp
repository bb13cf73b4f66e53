#include "plan_builder.hpp"

#include <algorithm>
#include <cmath>

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

uint64_t Rng::below(uint64_t n) {
  // Rejection keeps every value equally likely.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = engine_();
  while (x >= limit);
  return x % n;
}

double Rng::unit() { return double(engine_() >> 11) * 0x1.0p-53; }

PlanBuilder::PlanBuilder(const Profile& p, std::string method) : p_(p) {
  plan_.method = std::move(method);
  plan_.unit = p.unit;
  plan_.invocations = p.size();
  for (double d : p.duration) plan_.total += d;
}

uint32_t PlanBuilder::add_cluster(std::string label, std::span<const uint32_t> rows, uint32_t samples) {
  double sum = 0, sq = 0;
  for (uint32_t r : rows) sum += p_.duration[r];
  const double mean = rows.empty() ? 0 : sum / rows.size();
  for (uint32_t r : rows) sq += (p_.duration[r] - mean) * (p_.duration[r] - mean);
  plan_.clusters.push_back(PlanCluster{std::move(label), rows.size(), samples, mean,
                                       rows.empty() ? 0 : std::sqrt(sq / rows.size())});
  return static_cast<uint32_t>(plan_.clusters.size() - 1);
}

void PlanBuilder::pick(uint32_t cluster, uint32_t row) {
  auto [it, added] = picks_.emplace(row, std::make_pair(cluster, 0u));
  if (!added && it->second.first != cluster)
    fail("internal: invocation " + std::to_string(p_.id[row]) + " picked for two clusters");
  ++it->second.second;
}

Selection PlanBuilder::finish(std::map<std::string, double> params, std::optional<double> error_bound) {
  plan_.params = std::move(params);
  plan_.error_bound = error_bound;
  // Entries by kernel id; rows are chronological and ids usually are too.
  std::vector<uint32_t> rows;
  for (const auto& [row, cluster_picks] : picks_) rows.push_back(row);
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return p_.id[a] < p_.id[b]; });
  for (uint32_t row : rows) {
    auto [cluster, picks] = picks_.at(row);
    const PlanCluster& c = plan_.clusters[cluster];
    plan_.entries.push_back(PlanEntry{p_.id[row], p_.names[p_.name[row]], cluster, picks,
                                      double(picks) * double(c.size) / c.samples});
  }
  return Selection{std::move(plan_), std::move(rows)};
}

Selection every_launch(const Profile& p, std::string method) {
  PlanBuilder b(p, std::move(method));
  const auto labels = cluster_labels(p, p.name);
  for (uint32_t r = 0; r < p.size(); ++r) b.pick(b.add_cluster(labels[r], std::span(&r, 1), 1), r);
  return b.finish({});
}

uint32_t first_row(std::span<const uint32_t> rows) { return *std::min_element(rows.begin(), rows.end()); }

std::vector<std::string> cluster_labels(const Profile& p, const std::vector<uint32_t>& cluster_names) {
  std::vector<uint32_t> per_name(p.names.size(), 0), seen(p.names.size(), 0);
  for (uint32_t n : cluster_names) ++per_name[n];
  std::vector<std::string> labels;
  for (uint32_t n : cluster_names) {
    std::string label = p.names[n];
    if (per_name[n] > 1) label.append(1, '#').append(std::to_string(seen[n]++));
    labels.push_back(std::move(label));
  }
  return labels;
}

}  // namespace sasskit::kselect
