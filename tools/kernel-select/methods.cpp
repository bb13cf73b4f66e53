#include "methods.hpp"

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

Selector make_selector(const Profile& p, const MethodOptions& o) {
  double total = 0;
  for (double d : p.duration) total += d;
  if (total <= 0) fail_input(p.source, "every duration is zero; nothing to sample");
  if (o.method == "stem") return stem_selector(p, o);
  if (o.method == "random") return random_selector(p, o);
  if (o.method == "pka") return pka_selector(p, o);
  if (o.method == "sieve") return sieve_selector(p, o);
  if (o.method == "photon") return photon_selector(p, o);
  fail_usage("unknown method '" + o.method + "'");
}

}  // namespace sasskit::kselect
