#include "summary_plan.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

using profile::Kernel;
using profile::Layout;

bool is_summary(const profile::Profile& src) {
  return src.layout == Layout::NvprofSummary || src.layout == Layout::NsysKernSum ||
         std::any_of(src.kernels.begin(), src.kernels.end(), [](const Kernel& k) { return k.launches > 1; });
}

Plan summary_plan(const profile::Profile& src, const MethodOptions& o) {
  const std::string layout = profile::layout_name(src.layout);
  if (o.method != "stem")
    fail_usage("--method " + o.method + " cannot sample this " + layout +
               " export: it has one row per kernel name, to which only stem's one pick per name applies");
  if (src.kernels.empty()) fail_input(src.source, "no kernel invocations found");
  const auto& ks = src.kernels;
  const bool cycles = std::all_of(ks.begin(), ks.end(), [](const Kernel& k) { return k.cycles.has_value(); });
  const bool timed = cycles || std::all_of(ks.begin(), ks.end(), [](const Kernel& k) { return k.time_ns.has_value(); });
  Plan plan;
  plan.method = "stem";
  plan.params = {{"epsilon", o.epsilon}, {"confidence", o.confidence}, {"root", 0}, {"summary", 1}};
  plan.unit = cycles ? "cycles" : "ns";
  uint64_t first = 1;  // the launch number of the next name's first launch
  for (const Kernel& k : ks) {
    if (k.launches == 0) fail_input(src.source, k.line, "kernel '" + k.name + "' has no invocations");
    const double summed = !timed ? 0 : cycles ? *k.cycles : *k.time_ns;
    const auto cluster = static_cast<uint32_t>(plan.clusters.size());
    plan.clusters.push_back(PlanCluster{k.name, k.launches, 1, summed / double(k.launches), 0});
    plan.entries.push_back(PlanEntry{first, k.name, cluster, 1, double(k.launches)});
    plan.total += summed;
    if (__builtin_add_overflow(first, k.launches, &first))
      fail_input(src.source, k.line, "the invocation counts add up past 2^64");
  }
  plan.invocations = first - 1;
  std::string why = "this " + layout + " export has one row per kernel name, not per launch: launches of one name are "
                    "taken as alike, one pick per name weighted by its invocations";
  if (ks.size() > 1)
    why += "; it gives no launch order, so each name's pick is numbered as if its launches followed those of the "
           "names above it";
  warn(src.source, why);
  return plan;
}

}  // namespace sasskit::kselect
