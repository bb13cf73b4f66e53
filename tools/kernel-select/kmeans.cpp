#include "kmeans.hpp"

#include <algorithm>
#include <limits>

namespace sasskit::kselect {
namespace {

double distance2(const double* a, const double* b, size_t dims) {
  double d = 0;
  for (size_t j = 0; j < dims; ++j) d += (a[j] - b[j]) * (a[j] - b[j]);
  return d;
}

// k-means++: each next centre drawn with probability proportional to the
// squared distance to the nearest centre so far.
std::vector<double> seed_centres(const std::vector<double>& x, size_t n, size_t dims, uint32_t k,
                                 Rng& rng) {
  size_t first = rng.below(n);
  std::vector<double> centres(x.begin() + first * dims, x.begin() + (first + 1) * dims);
  std::vector<double> nearest(n);
  for (size_t i = 0; i < n; ++i) nearest[i] = distance2(x.data() + i * dims, centres.data(), dims);
  for (uint32_t c = 1; c < k; ++c) {
    double sum = 0;
    for (double d : nearest) sum += d;
    size_t pick = 0;
    if (sum > 0) {
      double target = rng.unit() * sum;
      while (pick + 1 < n && (target -= nearest[pick]) >= 0) ++pick;
    }
    centres.insert(centres.end(), x.begin() + pick * dims, x.begin() + (pick + 1) * dims);
    for (size_t i = 0; i < n; ++i)
      nearest[i] = std::min(nearest[i], distance2(x.data() + i * dims, centres.data() + c * dims, dims));
  }
  return centres;
}

}  // namespace

std::vector<uint32_t> kmeans(const std::vector<double>& x, size_t n, size_t dims, uint32_t k,
                             Rng& rng, unsigned max_iterations) {
  std::vector<uint32_t> assign(n, 0);
  if (n == 0 || dims == 0 || k <= 1) return assign;
  std::vector<double> centres = seed_centres(x, n, dims, k, rng);
  std::vector<double> sums(k * dims);
  std::vector<uint64_t> counts(k);
  for (unsigned it = 0; it < max_iterations; ++it) {
    bool changed = it == 0;
    for (size_t i = 0; i < n; ++i) {
      uint32_t best = 0;
      double best_d = std::numeric_limits<double>::infinity();
      for (uint32_t c = 0; c < k; ++c) {
        double d = distance2(x.data() + i * dims, centres.data() + c * dims, dims);
        if (d < best_d) best = c, best_d = d;
      }
      if (assign[i] != best) assign[i] = best, changed = true;
    }
    if (!changed) break;
    std::fill(sums.begin(), sums.end(), 0);
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t i = 0; i < n; ++i) {
      ++counts[assign[i]];
      for (size_t j = 0; j < dims; ++j) sums[assign[i] * dims + j] += x[i * dims + j];
    }
    for (uint32_t c = 0; c < k; ++c)
      if (counts[c] > 0)  // an empty cluster keeps its centre
        for (size_t j = 0; j < dims; ++j) centres[c * dims + j] = sums[c * dims + j] / counts[c];
  }
  return assign;
}

double inertia(const std::vector<double>& x, size_t n, size_t dims, const std::vector<uint32_t>& cluster,
               uint32_t k) {
  std::vector<double> centres(k * dims, 0);
  std::vector<uint64_t> counts(k, 0);
  for (size_t i = 0; i < n; ++i) {
    ++counts[cluster[i]];
    for (size_t j = 0; j < dims; ++j) centres[cluster[i] * dims + j] += x[i * dims + j];
  }
  for (uint32_t c = 0; c < k; ++c)
    for (size_t j = 0; j < dims && counts[c] > 0; ++j) centres[c * dims + j] /= double(counts[c]);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += distance2(x.data() + i * dims, centres.data() + cluster[i] * dims, dims);
  return sum;
}

}  // namespace sasskit::kselect
