#include "runs.hpp"

#include <algorithm>
#include <set>

#include "libcommon/diag.hpp"
#include "metrics.hpp"

namespace sasskit::stallreport {

namespace {

// Options of the GPU stages that take no value.
const std::set<std::string> kFlags = {"--pkp", "--no-memcpy-l2", "--accept-other-gpu", "--stats-only", "--force"};
// Options left out of a configuration: where data goes, how fast, how loud.
const std::set<std::string> kDroppedWithValue = {"-o", "--output", "--config", "-j", "--threads"};
const std::set<std::string> kDroppedFlags = {"-q", "--quiet", "--no-provenance"};

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

std::string option_name(const std::string& arg) { return arg.substr(0, arg.find('=')); }

std::string stage_options(const stream::Stage& s) {
  std::string out = s.tool;
  for (size_t i = 1; i < s.argv.size(); ++i) {
    const std::string& arg = s.argv[i];
    if (!is_option(arg)) continue;  // a positional argument: the input
    const std::string name = option_name(arg);
    const bool has_value = arg.find('=') == std::string::npos && !kFlags.count(name) && !kDroppedFlags.count(name) &&
                           i + 1 < s.argv.size() && !is_option(s.argv[i + 1]);
    if (!kDroppedWithValue.count(name) && !kDroppedFlags.count(name))
      out += " " + (has_value ? arg + " " + s.argv[i + 1] : arg);
    if (has_value) ++i;
  }
  return out;
}

std::string stats_gpu(const Report& rep) {
  for (const KernelReport& k : rep.kernels)
    if (k.gpu != rep.kernels.front().gpu) return "";
  return rep.kernels.empty() ? "" : rep.kernels.front().gpu;
}

// `into` gains `shard`'s kernels; a kernel already there gains its counts.
void add_shard(Report& into, const Report& shard) {
  if (shard.gpu != into.gpu || shard.config != into.config)
    fail_input(shard.source, "a shard of run '" + into.run + "' with another GPU model or configuration (" +
                                 shard.gpu + ", " + shard.config + ") than " + into.source + " (" + into.gpu + ", " +
                                 into.config + ")");
  for (const KernelReport& k : shard.kernels) {
    auto same = std::find_if(into.kernels.begin(), into.kernels.end(),
                             [&](const KernelReport& o) { return o.id == k.id; });
    if (same == into.kernels.end()) {
      into.kernels.push_back(k);
      continue;
    }
    if (same->name != k.name || same->weight != k.weight || same->sample_scale != 1 || k.sample_scale != 1)
      fail_input(shard.source, "kernel " + std::to_string(k.id) + " is in two shards of run '" + into.run +
                                   "' under another name, plan weight or CTA sample; only unsampled CTA-range "
                                   "shards of one kernel can be merged");
    KernelReport one = k;
    one.weight = 1;
    KernelReport other = *same;
    other.weight = 1;
    same->m = application_totals({other, one});
    same->shards += k.shards;
    same->top_pcs.clear();  // per-shard PCs do not rank the merged kernel
    same->pcs.clear();
  }
  into.projected = into.projected || shard.projected;
  if (into.plan_method.empty()) into.plan_method = shard.plan_method, into.plan_error_bound = shard.plan_error_bound;
}

}  // namespace

std::string run_config(const std::vector<stream::Stage>& provenance) {
  std::string out;
  for (const stream::Stage& s : provenance)
    if (!s.gpu.empty()) out += (out.empty() ? "" : "; ") + stage_options(s);
  for (char& c : out)
    if ((c >= 0 && c < ' ') || c == 0x7f) c = '?';  // from the input: no control characters reach a terminal
  return out;
}

void describe_run(Report& rep, const std::string& label) {
  rep.run = label.empty() ? rep.source : label;
  rep.gpu.clear();
  for (const stream::Stage& s : rep.provenance)
    if (!s.gpu.empty()) rep.gpu = s.gpu;
  if (rep.gpu.empty()) rep.gpu = stats_gpu(rep);
  rep.config = run_config(rep.provenance);
}

std::vector<Report> merge_shards(std::vector<Report> reports) {
  std::vector<Report> runs;
  for (Report& r : reports) {
    auto run = std::find_if(runs.begin(), runs.end(), [&](const Report& o) { return o.run == r.run; });
    if (run == runs.end()) {
      runs.push_back(std::move(r));
      continue;
    }
    add_shard(*run, r);
  }
  for (Report& run : runs) {
    std::stable_sort(run.kernels.begin(), run.kernels.end(),
                     [](const KernelReport& a, const KernelReport& b) { return a.id < b.id; });
    run.totals = application_totals(run.kernels);
    for (const KernelReport& k : run.kernels)
      if (k.shards > 1)
        warn(run.run, "kernel " + std::to_string(k.id) + "'s cycles are the sum of its " + std::to_string(k.shards) +
                          " CTA-range shards', each simulated on the whole GPU: more than one run of the kernel "
                          "takes when its shards' CTAs would share the GPU (see stall-report(1) on shards)");
  }
  return runs;
}

}  // namespace sasskit::stallreport
