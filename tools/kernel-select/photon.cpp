// Photon's kernel-level sampling (stem-root-micro25 §6.2, Table 1): each
// kernel, in launch order, joins the first earlier representative with the
// same name and warp count whose basic-block vector lies within a relative
// L2 distance (default 5%); otherwise it becomes a representative itself.
#include <cmath>
#include <map>
#include <utility>

#include "libcommon/diag.hpp"
#include "methods.hpp"

namespace sasskit::kselect {
namespace {

// ||a - b|| / ||b||
double relative_distance(const Bbv& a, const Bbv& b) {
  double diff = 0, norm = 0;
  for (const auto& [pc, x] : b) {
    norm += x * x;
    auto it = a.find(pc);
    double d = x - (it == a.end() ? 0 : it->second);
    diff += d * d;
  }
  for (const auto& [pc, x] : a)
    if (!b.count(pc)) diff += x * x;
  return norm == 0 ? (diff == 0 ? 0 : INFINITY) : std::sqrt(diff / norm);
}

}  // namespace

Selector photon_selector(const Profile& p, const MethodOptions& o) {
  if (p.bbv.empty() || p.warps.empty())
    fail_input(p.source, "method photon needs basic-block vectors: give it a trace stream");
  std::map<std::pair<uint32_t, uint64_t>, std::vector<size_t>> reps_by_key;  // -> cluster indices
  std::vector<std::vector<uint32_t>> clusters;
  std::vector<uint32_t> names;
  for (uint32_t r = 0; r < p.size(); ++r) {
    auto& reps = reps_by_key[{p.name[r], p.warps[r]}];
    size_t joined = clusters.size();
    for (size_t c : reps)
      if (relative_distance(p.bbv[r], p.bbv[clusters[c].front()]) <= o.distance) {
        joined = c;
        break;
      }
    if (joined == clusters.size()) {
      reps.push_back(joined);
      clusters.emplace_back();
      names.push_back(p.name[r]);
    }
    clusters[joined].push_back(r);
  }
  auto labels = cluster_labels(p, names);
  return [&p, clusters, labels, distance = o.distance](uint64_t) {
    PlanBuilder b(p, "photon");
    for (size_t c = 0; c < clusters.size(); ++c)
      b.pick(b.add_cluster(labels[c], clusters[c], 1), clusters[c].front());
    return b.finish({{"distance", distance}});
  };
}

}  // namespace sasskit::kselect
