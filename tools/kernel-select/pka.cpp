#include "pka.hpp"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "kmeans.hpp"
#include "libcommon/diag.hpp"
#include "methods.hpp"

namespace sasskit::kselect {
namespace {

// Columns scaled to mean 0, standard deviation 1; constant columns dropped.
std::vector<double> standardised(const Profile& p, size_t& dims) {
  const size_t n = p.size(), f = p.feature_names.size();
  std::vector<size_t> kept;
  std::vector<double> mean(f, 0), sd(f, 0);
  for (size_t j = 0; j < f; ++j) {
    for (size_t i = 0; i < n; ++i) mean[j] += p.features[i * f + j];
    mean[j] /= n;
    for (size_t i = 0; i < n; ++i) sd[j] += std::pow(p.features[i * f + j] - mean[j], 2);
    sd[j] = std::sqrt(sd[j] / n);
    if (sd[j] > 0) kept.push_back(j);
  }
  dims = kept.size();
  std::vector<double> z(n * dims);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < dims; ++k)
      z[i * dims + k] = (p.features[i * f + kept[k]] - mean[kept[k]]) / sd[kept[k]];
  return z;
}

struct GslMatrix {
  gsl_matrix* m;
  GslMatrix(size_t r, size_t c) : m(gsl_matrix_calloc(r, c)) {}
  ~GslMatrix() { gsl_matrix_free(m); }
};

// How far the projection from first-chronological representatives is from
// the measured total.
double projection_error(const Profile& p, const std::vector<uint32_t>& cluster, uint32_t k,
                        double total) {
  std::vector<int64_t> first(k, -1);
  std::vector<uint64_t> size(k, 0);
  for (uint32_t r = 0; r < cluster.size(); ++r) {
    if (first[cluster[r]] < 0) first[cluster[r]] = r;
    ++size[cluster[r]];
  }
  double projected = 0;
  for (uint32_t c = 0; c < k; ++c)
    if (size[c]) projected += p.duration[first[c]] * size[c];
  return std::abs(projected - total) / total;
}

// The PKA artifact clusters with scikit-learn's KMeans(n_init=10): ten
// k-means++ starts per K, keeping the one of least inertia. The starts are
// seeded from K alone, so K and the clusters do not change with --seed.
constexpr uint32_t kRestarts = 10;

std::vector<uint32_t> best_of_restarts(const std::vector<double>& points, size_t n, size_t dims, uint32_t k) {
  std::vector<uint32_t> best;
  double best_inertia = INFINITY;
  for (uint32_t r = 0; r < kRestarts; ++r) {
    Rng rng(uint64_t(k) * kRestarts + r);
    auto cluster = kmeans(points, n, dims, k, rng);
    const double e = inertia(points, n, dims, cluster, k);
    if (e < best_inertia) best = std::move(cluster), best_inertia = e;
  }
  return best;
}

}  // namespace

std::vector<double> principal_components(const Profile& p, double variance, size_t& dims) {
  size_t f = 0;
  std::vector<double> z = standardised(p, f);
  const size_t n = p.size();
  dims = 0;
  if (f == 0) return {};
  GslMatrix cov(f, f), vectors(f, f);
  for (size_t i = 0; i < n; ++i)
    for (size_t a = 0; a < f; ++a)
      for (size_t b = 0; b <= a; ++b) *gsl_matrix_ptr(cov.m, a, b) += z[i * f + a] * z[i * f + b] / n;
  for (size_t a = 0; a < f; ++a)
    for (size_t b = 0; b < a; ++b) gsl_matrix_set(cov.m, b, a, gsl_matrix_get(cov.m, a, b));
  std::unique_ptr<gsl_vector, decltype(&gsl_vector_free)> values(gsl_vector_alloc(f), gsl_vector_free);
  std::unique_ptr<gsl_eigen_symmv_workspace, decltype(&gsl_eigen_symmv_free)> work(
      gsl_eigen_symmv_alloc(f), gsl_eigen_symmv_free);
  gsl_eigen_symmv(cov.m, values.get(), vectors.m, work.get());
  gsl_eigen_symmv_sort(values.get(), vectors.m, GSL_EIGEN_SORT_VAL_DESC);
  double sum = 0, cumulative = 0;
  for (size_t j = 0; j < f; ++j) sum += std::max(0.0, gsl_vector_get(values.get(), j));
  // Like scikit-learn's PCA(n_components=fraction): the fewest components
  // whose cumulative share exceeds the fraction.
  while (dims < f && (dims == 0 || cumulative <= variance * sum))
    cumulative += std::max(0.0, gsl_vector_get(values.get(), dims++));
  std::vector<double> out(n * dims, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < dims; ++c)
      for (size_t j = 0; j < f; ++j) out[i * dims + c] += z[i * f + j] * gsl_matrix_get(vectors.m, j, c);
  return out;
}

Selector pka_selector(const Profile& p, const MethodOptions& o) {
  if (p.feature_names.empty())
    fail_input(p.source, "method pka needs feature columns (ncu metrics or extra plain CSV columns)");
  if (!(o.variance > 0 && o.variance <= 1)) fail_usage("--variance must be in (0, 1]");
  if (o.max_k < 1) fail_usage("--max-k must be at least 1");
  size_t dims = 0;
  auto points = std::make_shared<std::vector<double>>(principal_components(p, o.variance, dims));
  return [&p, o, points, dims](uint64_t) {
    double total = 0;
    for (double d : p.duration) total += d;
    std::vector<uint32_t> best;
    uint32_t best_k = 0;
    double best_error = INFINITY;
    for (uint32_t k = 1; k <= o.max_k && k <= p.size(); ++k) {
      auto cluster = best_of_restarts(*points, p.size(), dims, k);
      double e = projection_error(p, cluster, k, total);
      if (e < best_error) best = std::move(cluster), best_k = k, best_error = e;
      if (e <= o.target_error) break;
    }
    if (best_error > o.target_error)
      warn(p.source, "pka: no K up to " + std::to_string(o.max_k) + " projects within " +
                         std::to_string(o.target_error * 100) + "%; using K=" + std::to_string(best_k));
    std::vector<std::vector<uint32_t>> members(best_k);
    for (uint32_t r = 0; r < best.size(); ++r) members[best[r]].push_back(r);
    std::erase_if(members, [](const auto& m) { return m.empty(); });
    std::sort(members.begin(), members.end());  // by first chronological member
    PlanBuilder b(p, "pka");
    for (size_t c = 0; c < members.size(); ++c)
      b.pick(b.add_cluster("group" + std::to_string(c), members[c], 1), members[c].front());
    return b.finish({{"variance", o.variance}, {"target_error", o.target_error},
                     {"k", double(best_k)}, {"components", double(dims)}, {"restarts", double(kRestarts)}});
  };
}

}  // namespace sasskit::kselect
