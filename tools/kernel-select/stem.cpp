#include "stem.hpp"

#include <gsl/gsl_cdf.h>

#include <algorithm>
#include <cmath>

namespace sasskit::kselect {

double z_score(double confidence) { return gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2); }

std::vector<double> stem_real_sizes(const std::vector<ClusterStats>& clusters, double epsilon,
                                    double z) {
  double total = 0, sum_sqrt_ab = 0;
  for (const auto& k : clusters) {
    total += k.n * k.mean;
    sum_sqrt_ab += std::sqrt(k.mean) * k.n * k.sd;  // sqrt(a_j b_j)
  }
  const double c = std::pow(epsilon * total / z, 2);
  std::vector<double> m;
  m.reserve(clusters.size());
  for (const auto& k : clusters) {
    double b = std::pow(double(k.n) * k.sd, 2);
    m.push_back(b == 0 ? 0 : sum_sqrt_ab / c * std::sqrt(b / k.mean));
  }
  return m;
}

std::vector<uint32_t> stem_sizes(const std::vector<ClusterStats>& clusters, double epsilon, double z) {
  std::vector<uint32_t> sizes;
  const std::vector<double> real = stem_real_sizes(clusters, epsilon, z);
  for (size_t i = 0; i < real.size(); ++i) {
    // A relative tolerance keeps an exact integer from rounding up on float noise.
    const double up = std::ceil(real[i] * (1 - 1e-12));
    const double census = static_cast<double>(std::max<uint64_t>(clusters[i].n, 1));
    sizes.push_back(static_cast<uint32_t>(std::clamp(up, 1.0, census)));
  }
  return sizes;
}

bool is_census(const ClusterStats& cluster, double m) { return m >= static_cast<double>(cluster.n); }

double stem_error(const std::vector<ClusterStats>& clusters, const std::vector<double>& m, double z) {
  double total = 0, variance = 0;
  for (size_t i = 0; i < clusters.size(); ++i) {
    total += clusters[i].n * clusters[i].mean;
    double b = std::pow(double(clusters[i].n) * clusters[i].sd, 2);
    if (b > 0 && !is_census(clusters[i], m[i])) variance += b / m[i];
  }
  return z * std::sqrt(variance) / total;
}

double stem_tau(const std::vector<ClusterStats>& clusters, const std::vector<uint32_t>& m) {
  double tau = 0;
  for (size_t i = 0; i < clusters.size(); ++i) tau += m[i] * clusters[i].mean;
  return tau;
}

}  // namespace sasskit::kselect
