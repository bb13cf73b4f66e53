// STEM's statistical error model (stem-root-micro25 §3.2-3.3, §8.1).
// For clusters i with N_i invocations of mean mu_i and standard deviation
// sigma_i, sampling m_i of each with replacement estimates the total with
// relative error z * sqrt(sum N_i^2 sigma_i^2 / m_i) / sum N_i mu_i at the
// given confidence (Eq. 4-5). Minimising the sampled time sum m_i mu_i
// under error <= epsilon gives, with a_i = mu_i, b_i = N_i^2 sigma_i^2 and
// c = (epsilon sum N_i mu_i / z)^2, m_i = (sum_j sqrt(a_j b_j) / c) sqrt(b_i / a_i)
// (§8.1; the paper's Eq. 6 misprints the sum as sqrt(sum a_j b_j)).
#pragma once

#include <cstdint>
#include <vector>

namespace sasskit::kselect {

struct ClusterStats {
  uint64_t n = 0;
  double mean = 0;
  double sd = 0;  // population standard deviation
};

// z_{1-alpha/2} for a two-sided confidence 1 - alpha (GSL's inverse normal CDF).
double z_score(double confidence);

// The KKT sizes before rounding; 0 for a cluster without variance.
std::vector<double> stem_real_sizes(const std::vector<ClusterStats>& clusters, double epsilon, double z);

// Rounded up, at least one sample per cluster and at most the cluster's size:
// a cluster that needs as many samples as it has invocations is simulated
// whole (a census, exact) instead of sampled with replacement.
std::vector<uint32_t> stem_sizes(const std::vector<ClusterStats>& clusters, double epsilon, double z);

// True when `m` samples of `cluster` are a census of it.
bool is_census(const ClusterStats& cluster, double m);

// z * sqrt(sum N_i^2 sigma_i^2 / m_i) / sum N_i mu_i: the error bound that
// sizes `m` (real or rounded) give; a census adds no error.
double stem_error(const std::vector<ClusterStats>& clusters, const std::vector<double>& m, double z);

// tau = sum m_i mu_i, the sampled time (Eq. 7-8).
double stem_tau(const std::vector<ClusterStats>& clusters, const std::vector<uint32_t>& m);

}  // namespace sasskit::kselect
