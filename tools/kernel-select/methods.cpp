#include "methods.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

namespace {

bool known_method(const std::string& m) {
  return m == "stem" || m == "random" || m == "pka" || m == "sieve" || m == "photon";
}

// A plan lists each invocation once: an id given twice is two launches the
// input cannot tell apart.
void check_ids_unique(const Profile& p) {
  std::vector<uint64_t> ids = p.id;
  std::sort(ids.begin(), ids.end());
  if (auto twice = std::adjacent_find(ids.begin(), ids.end()); twice != ids.end())
    fail_input(p.source, "invocation id " + std::to_string(*twice) + " appears twice");
}

// Every method sums durations, and STEM and the error bounds their squares:
// a sum that overflows would make a plan of infinities. A finite sum of
// squares keeps the sums of durations and of squared deviations finite.
void check_durations_sum(const Profile& p) {
  double squares = 0, largest = 0;
  for (double d : p.duration) squares += d * d, largest = std::max(largest, d);
  if (!std::isfinite(squares)) {
    std::ostringstream text;
    text << largest;
    fail_input(p.source, "durations too large to sum (up to " + text.str() + " " + p.unit +
                             "): the sum of their squares overflows a double");
  }
}

}  // namespace

Selector make_selector(const Profile& p, const MethodOptions& o) {
  if (!known_method(o.method)) fail_usage("unknown method '" + o.method + "'");
  check_ids_unique(p);
  check_durations_sum(p);
  // Sampling chooses among launches; one launch leaves no choice, whatever
  // data the method would need.
  if (p.size() == 1) {
    warn(p.source, "only 1 kernel launch; method " + o.method +
                       " needs at least 2 to sample from, so the plan keeps it with weight 1");
    return [&p, method = o.method](uint64_t) { return every_launch(p, method); };
  }
  double total = 0;
  for (double d : p.duration) total += d;
  if (total <= 0) fail_input(p.source, "every duration is zero; nothing to sample");
  if (o.method == "stem") return stem_selector(p, o);
  if (o.method == "random") return random_selector(p, o);
  if (o.method == "pka") return pka_selector(p, o);
  if (o.method == "sieve") return sieve_selector(p, o);
  return photon_selector(p, o);
}

}  // namespace sasskit::kselect
