// sasskit-gen: writes deterministic synthetic Accel-Sim traces for tests,
// demos and benchmarks.
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "trace_dir.hpp"

int main(int argc, char** argv) {
  using namespace sasskit::gen;
  sasskit::ToolApp app("sasskit-gen",
                       "Write a synthetic, deterministic Accel-Sim v4 SASS trace "
                       "(kernelslist.g and kernel-N.traceg) of parameterised kernels",
                       argc, argv);
  CLI::App& cli = app.app();
  std::vector<std::string> kinds;
  std::string output;
  GenOptions opt;
  KernelParams& p = opt.params;
  cli.add_option("--kernel,-k", kinds,
                 "Kernels launched in order, comma-separated: vecadd, gemm, stencil, "
                 "reduce, gather, tensor, empty, ffma, wgmma (sm_90)")
      ->required()
      ->delimiter(',');
  cli.add_option("--stream", opt.streams,
                 "CUDA stream of each kernel of --kernel, comma-separated, in the same order "
                 "(a repeated list keeps them); default all on stream 0")
      ->delimiter(',');
  cli.add_option("--repeat", opt.repeat, "Launch the kernel list this many times")
      ->capture_default_str();
  cli.add_option("--size,-n", p.size,
                 "Problem size: elements per array (stencil, gemm and tensor use the "
                 "smallest square of at least that many); suffixes k, M, G are powers of 1024")
      ->transform(CLI::AsSizeValue(false));
  cli.add_option("--grid", p.grid, "CTAs along x (along x and y for gemm); default from --size");
  cli.add_option("--block", p.block, "Threads per CTA; default 256 (tensor 128)");
  cli.add_option("--iters", p.iters,
                 "Trips of each kernel's main loop (elements per thread, stencil rows per "
                 "CTA, gemm and wgmma k-tiles, tensor k-steps, ffma trips of 16 FFMAs); "
                 "default from --size (ffma 256)");
  cli.add_option("--imbalance", p.imbalance,
                 "Every 8th CTA (0, 8, 16, ...) runs this many times the trips")
      ->capture_default_str();
  cli.add_option("--stages", p.stages,
                 "wgmma: k-tiles of A and B in flight in shared memory (1: copies and MMAs "
                 "take turns); default 2");
  cli.add_option("--seed", p.seed, "Seed of the random addresses (gather)")->capture_default_str();
  cli.add_option("--binary-version", opt.binary_version,
                 "SASS binary version: 61, 70, 75, 80, 86 or 90")
      ->capture_default_str();
  cli.add_option("-o,--output", output,
                 "Output directory (created if missing), or - for one launch's "
                 "kernel trace on stdout")
      ->required();
  return app.run([&] {
    for (const auto& k : kinds) opt.kernels.push_back(parse_kernel_kind(k));
    if (output == "-")
      write_single_kernel(opt, output);
    else
      write_trace_dir(opt, output);
  });
}
