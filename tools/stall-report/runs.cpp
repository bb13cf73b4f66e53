#include "runs.hpp"

#include <algorithm>
#include <iterator>

#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "metrics.hpp"

namespace sasskit::stallreport {

namespace {

std::vector<stream::Stage> gpu_stages(const std::vector<stream::Stage>& provenance) {
  std::vector<stream::Stage> out;
  std::copy_if(provenance.begin(), provenance.end(), std::back_inserter(out),
               [](const stream::Stage& s) { return !s.gpu.empty(); });
  return out;
}

std::string stage_options(const stream::Stage& s) {
  std::string out = s.tool;
  if (!s.options) {
    std::string args;
    for (size_t i = 1; i < s.argv.size(); ++i) args += (args.empty() ? "" : " ") + s.argv[i];
    return out + (s.argv.empty() ? " (options not recorded)" : " (command line: " + args + ")");
  }
  for (const auto& [name, value] : *s.options) out += " --" + name + (value == "true" ? "" : "=" + value);
  return out;
}

// What identifies a stage's configuration: its options without the model's
// keys (the fingerprint holds the model's values); before 2.3, its argv.
stream::Stage configuration_of(const stream::Stage& s) {
  stream::Stage c{s.tool, "", s.options ? std::vector<std::string>{} : s.argv, s.gpu, s.gpu_fingerprint, s.options};
  if (c.options) std::erase_if(*c.options, [](const auto& option) { return is_gpu_model_option(option.first); });
  return c;
}

// "GPU, configuration", with the stages' model fingerprints when `fingerprints`.
std::string run_identity(const Report& rep, bool fingerprints) {
  std::string out = rep.gpu + ", " + rep.config;
  if (!fingerprints) return out;
  for (const stream::Stage& s : gpu_stages(rep.provenance))
    out += "; " + s.tool + " model " + (s.gpu_fingerprint.empty() ? "without fingerprint" : s.gpu_fingerprint);
  return out;
}

std::string stats_gpu(const Report& rep) {
  for (const KernelReport& k : rep.kernels)
    if (k.gpu != rep.kernels.front().gpu) return "";
  return rep.kernels.empty() ? "" : rep.kernels.front().gpu;
}

// `into` gains `shard`'s kernels; a kernel already there gains its counts.
void add_shard(Report& into, const Report& shard) {
  if (shard.gpu != into.gpu || !same_configuration(shard.provenance, into.provenance)) {
    // Stages that differ only in their model's values look alike: their fingerprints tell them apart.
    const bool alike = run_identity(shard, false) == run_identity(into, false);
    fail_input(shard.source, "a shard of run '" + into.run + "' with another GPU model or configuration (" +
                                 run_identity(shard, alike) + ") than " + into.source + " (" +
                                 run_identity(into, alike) + ")");
  }
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
  for (const stream::Stage& s : gpu_stages(provenance)) out += (out.empty() ? "" : "; ") + stage_options(s);
  for (char& c : out)
    if ((c >= 0 && c < ' ') || c == 0x7f) c = '?';  // from the input: no control characters reach a terminal
  return out;
}

bool same_configuration(const std::vector<stream::Stage>& a, const std::vector<stream::Stage>& b) {
  const std::vector<stream::Stage> ga = gpu_stages(a), gb = gpu_stages(b);
  return std::equal(ga.begin(), ga.end(), gb.begin(), gb.end(), [](const stream::Stage& x, const stream::Stage& y) {
    return configuration_of(x) == configuration_of(y);
  });
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
