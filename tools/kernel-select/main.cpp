// kernel-select: choose the kernel invocations worth simulating and the
// weight of each (STEM+ROOT, PKA, Sieve, Photon or random sampling).
#include "libcommon/cli.hpp"
#include "libcommon/count_option.hpp"
#include "run.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp app("kernel-select",
                       "Pick the kernel invocations to simulate and their weights from a "
                       "profiler export (ncu, nvprof, nsys CSV or sqlite, Accel-Sim), a plain CSV or a trace stream",
                       argc, argv, {.force = true, .provenance = true});
  sasskit::kselect::RunOptions o;
  auto& m = o.method;
  CLI::App& cli = app.app();
  cli.add_option("input", o.input, "Profile (see formats/PROFILES.md) or sasskit stream ('-' = stdin)")->capture_default_str();
  cli.add_option("-o,--output", o.output, "Output file ('-' = stdout)")->capture_default_str();
  cli.add_option("-m,--method", m.method, "stem, pka, sieve, photon or random")
      ->check(CLI::IsMember({"stem", "pka", "sieve", "photon", "random"}))
      ->capture_default_str();
  cli.add_option("--format", o.format, "Plan as a stream record, CSV or JSON")
      ->check(CLI::IsMember({"stream", "csv", "json"}))
      ->capture_default_str();
  cli.add_option("-e,--epsilon", m.epsilon, "stem: relative error bound, in (0, 1)")->capture_default_str();
  cli.add_option("--confidence", m.confidence, "stem: confidence of the bound, in (0, 1)")
      ->capture_default_str();
  cli.add_flag("--no-root", [&](int64_t) { m.root = false; }, "stem: one cluster per kernel name");
  cli.add_option("--rate", m.rate, "random: probability of picking each invocation")->capture_default_str();
  cli.add_option("--target-error", m.target_error, "pka: projected-total error that ends the K sweep")
      ->capture_default_str();
  cli.add_option("--variance", m.variance, "pka: variance share the principal components keep")
      ->capture_default_str();
  cli.add_option("--max-k", m.max_k, "pka: largest K tried")->capture_default_str();
  cli.add_option("--distance", m.distance, "photon: largest relative L2 distance of a match")
      ->capture_default_str();
  cli.add_option("--cov-limit", m.sieve_cov, "sieve: CoV below which a kernel is tier 2")
      ->capture_default_str();
  cli.add_option("--profile-config", o.profile.config,
                 "Accel-Sim get_stats.py CSV: the config (column) to read when it has several");
  cli.add_option("--seed", o.seed, "Seed of the random draws")->check(sasskit::count_in())->capture_default_str();
  cli.add_flag("--evaluate", o.evaluate, "Report the true error and speedup instead of the plan");
  cli.add_option("--repeat", o.repeat, "With --evaluate: number of draws (seeds seed, seed+1, ...)")
      ->capture_default_str();
  // -s and -c are --launch-skip and --launch-count wherever kernels are selected (trace-unpack, as ncu).
  app.keep_old_spelling("-s", "--seed", "-s means --launch-skip in sasskit, as in ncu");
  app.keep_old_spelling("-c", "--confidence", "-c means --launch-count in sasskit, as in ncu");
  return app.run([&] { sasskit::kselect::run(o, app.common()); });
}
