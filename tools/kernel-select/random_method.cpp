// random: every invocation picked independently with probability `rate` (the
// STEM paper's baseline, §4.1); each pick weighs N / picks. At least one.
#include "libcommon/diag.hpp"
#include "methods.hpp"

namespace sasskit::kselect {

Selector random_selector(const Profile& p, const MethodOptions& o) {
  if (!(o.rate > 0 && o.rate <= 1)) fail_usage("--rate must be in (0, 1]");
  return [&p, rate = o.rate](uint64_t seed) {
    Rng rng(seed);
    std::vector<uint32_t> all(p.size()), picked;
    for (uint32_t r = 0; r < p.size(); ++r) {
      all[r] = r;
      if (rng.unit() < rate) picked.push_back(r);
    }
    if (picked.empty()) picked.push_back(static_cast<uint32_t>(rng.below(p.size())));
    PlanBuilder b(p, "random");
    uint32_t c = b.add_cluster("all", all, static_cast<uint32_t>(picked.size()));
    for (uint32_t r : picked) b.pick(c, r);
    return b.finish({{"rate", rate}, {"seed", double(seed)}});
  };
}

}  // namespace sasskit::kselect
