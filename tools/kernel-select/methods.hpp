// The selection methods. Each builds what does not depend on the seed once
// and returns a function that draws a plan for a seed, so --repeat only
// redraws.
#pragma once

#include <functional>
#include <string>

#include "plan_builder.hpp"
#include "profile.hpp"

namespace sasskit::kselect {

struct MethodOptions {
  std::string method = "stem";
  double epsilon = 0.05;        // stem: error bound
  double confidence = 0.95;     // stem: confidence of the bound
  bool root = true;             // stem: split name groups with ROOT
  double rate = 0.001;          // random: probability of picking each invocation
  double target_error = 0.05;   // pka: projected-total error that stops the K sweep
  double variance = 0.9995;     // pka: share of variance the kept components explain
  unsigned max_k = 20;          // pka: largest K tried
  double distance = 0.05;       // photon: largest relative L2 distance of a match
  double sieve_cov = 0.4;       // sieve: CoV limit of tier 2
};

using Selector = std::function<Selection(uint64_t seed)>;

// Checks the options against the profile (BadInput when a method lacks the
// data it needs) and prepares the method.
Selector make_selector(const Profile& p, const MethodOptions& o);

Selector stem_selector(const Profile& p, const MethodOptions& o);
Selector random_selector(const Profile& p, const MethodOptions& o);
Selector pka_selector(const Profile& p, const MethodOptions& o);
Selector sieve_selector(const Profile& p, const MethodOptions& o);
Selector photon_selector(const Profile& p, const MethodOptions& o);

}  // namespace sasskit::kselect
