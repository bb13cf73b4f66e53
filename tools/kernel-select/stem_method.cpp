// stem: ROOT clusters (or one per name), STEM sizes, random picks with
// replacement from each cluster (stem-root-micro25 §3.5).
#include <memory>

#include "methods.hpp"
#include "root.hpp"

namespace sasskit::kselect {

Selector stem_selector(const Profile& p, const MethodOptions& o) {
  const double z = z_score(o.confidence);
  auto clusters = std::make_shared<std::vector<DurationCluster>>(
      o.root ? root_clusters(p, o.epsilon, z) : group_by_name(p));
  std::vector<ClusterStats> stats;
  std::vector<uint32_t> names;
  for (const auto& c : *clusters) {
    stats.push_back(c.stats);
    names.push_back(c.name);
  }
  auto sizes = stem_sizes(stats, o.epsilon, z);
  const double bound = stem_error(stats, std::vector<double>(sizes.begin(), sizes.end()), z);
  auto labels = cluster_labels(p, names);
  std::map<std::string, double> params{{"epsilon", o.epsilon}, {"confidence", o.confidence},
                                       {"z", z}, {"root", o.root ? 1.0 : 0.0}};
  return [&p, clusters, sizes, bound, labels, params](uint64_t seed) {
    Rng rng(seed);
    PlanBuilder b(p, "stem");
    for (size_t i = 0; i < clusters->size(); ++i) {
      const auto& rows = (*clusters)[i].rows;
      uint32_t c = b.add_cluster(labels[i], rows, sizes[i]);
      if (is_census((*clusters)[i].stats, sizes[i])) {
        for (uint32_t r : rows) b.pick(c, r);
        continue;
      }
      for (uint32_t k = 0; k < sizes[i]; ++k) b.pick(c, rows[rng.below(rows.size())]);
    }
    auto with_seed = params;
    with_seed["seed"] = double(seed);
    return b.finish(with_seed, bound);
  };
}

}  // namespace sasskit::kselect
