#include "evaluate.hpp"

#include <algorithm>
#include <cmath>

namespace sasskit::kselect {

DrawScore score(const Profile& p, const Selection& s) {
  DrawScore d;
  double sampled = 0;
  for (size_t i = 0; i < s.rows.size(); ++i) {
    d.projected += s.plan.entries[i].weight * p.duration[s.rows[i]];
    sampled += p.duration[s.rows[i]];
  }
  // A lone launch without a duration (read_profile.hpp) has total 0 and is
  // projected exactly.
  const double total = s.plan.total;
  d.error = total > 0 ? std::abs(d.projected - total) / total : 0;
  d.speedup = sampled > 0 ? total / sampled : total > 0 ? INFINITY : 1;
  d.samples = s.rows.size();
  return d;
}

Evaluation evaluate(const Profile& p, const Selector& select, uint64_t seed, unsigned repeat) {
  Evaluation e;
  e.repeat = repeat;
  e.seed = seed;
  std::vector<double> errors;
  double inverse_speedup = 0;
  for (unsigned r = 0; r < repeat; ++r) {
    Selection s = select(seed + r);
    if (r == 0) {
      e.method = s.plan.method;
      e.clusters = s.plan.clusters.size();
      e.error_bound = s.plan.error_bound;
    }
    DrawScore d = score(p, s);
    errors.push_back(d.error);
    e.samples += double(d.samples) / repeat;
    inverse_speedup += 1 / d.speedup;
  }
  for (double x : errors) e.mean_error += x / repeat;
  std::sort(errors.begin(), errors.end());
  e.p95_error = errors[size_t(std::ceil(0.95 * repeat)) - 1];
  e.speedup = repeat / inverse_speedup;
  return e;
}

}  // namespace sasskit::kselect
