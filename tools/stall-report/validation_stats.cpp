#include "validation_stats.hpp"

#include <cmath>
#include <gsl/gsl_statistics_double.h>

namespace sasskit::stallreport {

std::optional<double> mape(const std::vector<double>& sim, const std::vector<double>& ref) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = 0; i < sim.size(); ++i)
    if (ref[i] != 0) sum += std::fabs(sim[i] - ref[i]) / std::fabs(ref[i]), ++n;
  return n ? std::optional<double>(100 * sum / double(n)) : std::nullopt;
}

std::optional<double> mae(const std::vector<double>& sim, const std::vector<double>& ref) {
  if (sim.empty()) return std::nullopt;
  double sum = 0;
  for (size_t i = 0; i < sim.size(); ++i) sum += std::fabs(sim[i] - ref[i]);
  return sum / double(sim.size());
}

std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2) return std::nullopt;
  auto constant = [](const std::vector<double>& v) {
    for (double e : v)
      if (e != v[0]) return false;
    return true;
  };
  if (constant(x) || constant(y)) return std::nullopt;
  return gsl_stats_correlation(x.data(), 1, y.data(), 1, x.size());
}

}  // namespace sasskit::stallreport
