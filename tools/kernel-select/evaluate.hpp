// --evaluate: the profile knows every duration, so a plan's projection can be
// compared with the truth. Error as stem-root-micro25 Eq. 1; speedup = total
// time / time of the distinct selected invocations; over repeated draws the
// mean and 95th-percentile error and the harmonic-mean speedup (§4.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "methods.hpp"

namespace sasskit::kselect {

struct DrawScore {
  double projected = 0;  // sum of weight * duration
  double error = 0;      // |projected - total| / total
  double speedup = 0;    // total / sampled time
  size_t samples = 0;    // distinct invocations selected
};

DrawScore score(const Profile& p, const Selection& s);

struct Evaluation {
  std::string method;
  unsigned repeat = 1;
  uint64_t seed = 0;
  size_t clusters = 0;         // of the first draw
  double samples = 0;          // mean distinct invocations per draw
  double speedup = 0;          // harmonic mean
  double mean_error = 0;       // fractions, not percent
  double p95_error = 0;        // nearest-rank 95th percentile
  std::optional<double> error_bound;
};

// Draws with seeds seed, seed + 1, ... seed + repeat - 1.
Evaluation evaluate(const Profile& p, const Selector& select, uint64_t seed, unsigned repeat);

}  // namespace sasskit::kselect
