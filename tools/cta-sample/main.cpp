// cta-sample: schedule each kernel's CTAs onto SMs (modeled or replayed)
// and keep only the CTA-set of the SM predicted to take longest.
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/tool_options.hpp"
#include "run.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("cta-sample",
                        "Schedule CTAs onto SMs (modeled or replayed from a log) and keep the "
                        "CTA-set of the SM predicted to take longest (HyFiSS SM sampling).",
                        argc, argv, {.force = true, .provenance = true});
  CLI::App& app = tool.app();
  sasskit::GpuOptions gpu(tool);
  sasskit::ctasample::RunOptions opt;
  sasskit::add_stream_io_options(app, opt.io, "Output stream or JSON");
  auto* replay = app.add_option("--replay", opt.replay,
                                "Replay this CTA -> SM log (HyFiSS issue.config or CSV "
                                "kernel,cta,sm,clock) instead of modeling the schedule");
  const sasskit::PlacementOptions placement = sasskit::add_placement_options(app, opt.placement);
  placement.policy->excludes(replay);
  placement.serial_kernels->excludes(replay);
  tool.keep_old_spelling("--policy", "--sched-policy", "rd-cache and pipe-sim spell it so");
  app.add_option("--keep", opt.keep,
                 "sampled: only the chosen SM's CTAs; all: every CTA (schedule only)")
      ->check(CLI::IsMember({"sampled", "all"}))
      ->capture_default_str();
  auto* sm = app.add_option("--sm", opt.sm, "Keep this SM's CTAs instead of the longest SM's");
  app.add_option("--top", opt.top, "Keep the CTAs of the K SMs predicted to take longest")
      ->check(sasskit::positive_number())
      ->capture_default_str()
      ->excludes(sm);
  app.add_option("--estimate", opt.estimate,
                 "Sampling error estimate: check (keep the SM predicted shortest too, and estimate from "
                 "what the kept SMs measured) or limits (cta-sample's widest limit, nothing more simulated)")
      ->check(CLI::IsMember({"check", "limits"}))
      ->capture_default_str();
  return tool.run([&] {
    if (opt.keep == "all" && (sm->count() || app.count("--top") || app.count("--estimate")))
      sasskit::fail_usage("--keep all samples nothing: drop --sm, --top and --estimate");
    opt.accept_other_gpu = gpu.accept_other_gpu();
    const sasskit::GpuConfig model = gpu.config();
    sasskit::ctasample::run(opt, model, *gpu.model_in_use(), tool.common());
  });
}
