// cta-sample: schedule each kernel's CTAs onto SMs (modeled or replayed)
// and keep only the CTA-set of the SM predicted to take longest.
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "run.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("cta-sample",
                        "Schedule CTAs onto SMs (modeled or replayed from a log) and keep the "
                        "CTA-set of the SM predicted to take longest (HyFiSS SM sampling).",
                        argc, argv, {.force = true, .provenance = true});
  CLI::App& app = tool.app();
  sasskit::GpuOptions gpu(tool);
  sasskit::ctasample::RunOptions opt;
  app.add_option("input", opt.input, "Input stream (- = stdin)")->capture_default_str();
  app.add_option("-o,--output", opt.output, "Output stream or JSON (- = stdout)")
      ->capture_default_str();
  auto* replay = app.add_option("--replay", opt.replay,
                                "Replay this CTA -> SM log (HyFiSS issue.config or CSV "
                                "kernel,cta,sm,clock) instead of modeling the schedule");
  app.add_option("--policy", opt.policy, "Modeled CTA scheduler: round-robin, greedy or wave")
      ->check(CLI::IsMember({"round-robin", "greedy", "wave"}))
      ->capture_default_str()
      ->excludes(replay);
  app.add_flag("--serial-kernels", opt.serial_kernels,
               "Place one kernel at a time on the GPU, whatever its stream, as Accel-Sim does by default "
               "(without it kernels of different streams share SMs, as on the GPU)")
      ->excludes(replay);
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
  app.add_option("--format", opt.format, "Output: stream, or json (a summary per kernel)")
      ->check(CLI::IsMember({"stream", "json"}))
      ->capture_default_str();
  return tool.run([&] {
    if (opt.keep == "all" && (sm->count() || app.count("--top") || app.count("--estimate")))
      sasskit::fail_usage("--keep all samples nothing: drop --sm, --top and --estimate");
    opt.accept_other_gpu = gpu.accept_other_gpu();
    sasskit::ctasample::run(opt, gpu.config(), tool.common());
  });
}
