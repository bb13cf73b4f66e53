#include "methods.hpp"

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

namespace {

bool known_method(const std::string& m) {
  return m == "stem" || m == "random" || m == "pka" || m == "sieve" || m == "photon";
}

}  // namespace

Selector make_selector(const Profile& p, const MethodOptions& o) {
  if (!known_method(o.method)) fail_usage("unknown method '" + o.method + "'");
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
