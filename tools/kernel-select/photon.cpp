// Photon's kernel-level sampling as stem-root-micro25 describes it (Table 1:
// "find a kernel with similar BBV and #warps (95% threshold)"): each kernel,
// in launch order, joins an earlier representative, of any name, whose
// normalised basic-block vector (each block's share of the kernel's warp
// instructions) lies within a relative L2 distance (default 5%), preferring
// the closest warp count, then the closest vector, then the earliest;
// otherwise it becomes a representative itself.
#include <cmath>
#include <cstdint>
#include <tuple>

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

// The BBV as shares of the kernel's warp instructions.
Bbv normalised(const Bbv& v) {
  double sum = 0;
  for (const auto& [pc, x] : v) sum += x;
  Bbv out;
  for (const auto& [pc, x] : v) out.emplace(pc, sum > 0 ? x / sum : 0);
  return out;
}

uint64_t warp_gap(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

}  // namespace

Selector photon_selector(const Profile& p, const MethodOptions& o) {
  if (p.bbv.empty() || p.warps.empty())
    fail_input(p.source, "method photon needs basic-block vectors: give it a trace stream");
  std::vector<Bbv> bbv;
  bbv.reserve(p.size());
  for (const Bbv& v : p.bbv) bbv.push_back(normalised(v));
  std::vector<std::vector<uint32_t>> clusters;  // front() is the representative
  std::vector<uint32_t> names;
  for (uint32_t r = 0; r < p.size(); ++r) {
    size_t joined = clusters.size();
    std::tuple<uint64_t, double> best{UINT64_MAX, INFINITY};  // (warp gap, distance)
    for (size_t c = 0; c < clusters.size(); ++c) {
      const uint32_t rep = clusters[c].front();
      const double d = relative_distance(bbv[r], bbv[rep]);
      if (d > o.distance) continue;
      const std::tuple<uint64_t, double> key{warp_gap(p.warps[r], p.warps[rep]), d};
      if (key < best) best = key, joined = c;
    }
    if (joined == clusters.size()) {
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
