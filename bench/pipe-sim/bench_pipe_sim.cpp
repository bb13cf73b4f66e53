// bench-pipe-sim: simulated warp-instructions and cycles per second of
// pipe-sim's full model on generated kernels, with 1 and N threads.
//   bench-pipe-sim --config qv100 [-k gemm,stencil,reduce,vecadd] [-n SIZE] [--bench-threads 2]
#include <chrono>
#include <cstdio>
#include <ctime>

#include "generated_workload.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/gpu_options.hpp"
#include "simulate.hpp"

using namespace sasskit;

namespace {

// Wall and CPU seconds: on a shared machine the CPU time of the
// one-thread run is the per-core speed.
struct Timing {
  double seconds, cpu_seconds;
  uint64_t insts, cycles, stalls, other;
};

Timing time_run(const pipesim::Workload& w, pipesim::RunOptions opt, unsigned threads) {
  opt.threads = threads;
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  auto results = pipesim::simulate_workload(w, opt, pipesim::opcode_table_classifier);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Timing t{s, double(std::clock() - cpu) / CLOCKS_PER_SEC, 0, 0, 0, 0};
  for (const auto& r : results) {
    t.insts += r.stats.total.insts;
    t.cycles += r.stats.total.sm_cycles;
    t.stalls += r.stats.total.stall_cycles();
    t.other += r.stats.total.stall_type[size_t(StallType::Other)];
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  ToolApp tool("bench-pipe-sim", "Benchmark pipe-sim's simulation speed on generated kernels", argc, argv);
  CLI::App& app = tool.app();
  GpuOptions gpu_options(app);
  std::vector<std::string> kinds = {"gemm", "stencil", "reduce", "vecadd"};
  gen::GenOptions g;
  unsigned threads = 2;
  app.add_option("-k,--kernel", kinds, "Generated kernels")->delimiter(',')->capture_default_str();
  app.add_option("-n,--size", g.params.size, "Problem size (see sasskit-gen)");
  app.add_option("--bench-threads", threads, "Threads of the parallel run")->capture_default_str();
  return tool.run([&] {
    for (const auto& k : kinds) g.kernels.push_back(gen::parse_kernel_kind(k));
    pipesim::RunOptions opt;
    opt.sim.gpu = gpu_options.config();
    pipesim::Workload w = pipesim::generated_workload(g);
    Timing one = time_run(w, opt, 1), many = time_run(w, opt, threads);
    std::printf("kernels %zu, warp instructions %llu, SM cycles %llu, Other share of stall cycles %.5f\n",
                w.kernels.size(), static_cast<unsigned long long>(one.insts),
                static_cast<unsigned long long>(one.cycles), one.stalls ? double(one.other) / one.stalls : 0.0);
    for (const auto& [n, t] : {std::pair{1u, one}, std::pair{threads, many}})
      std::printf("threads %u: wall %.3f s (CPU %.3f s), %.2f M warp-instructions/s, %.2f M SM-cycles/s wall\n", n,
                  t.seconds, t.cpu_seconds, t.insts / t.seconds / 1e6, t.cycles / t.seconds / 1e6);
    std::printf("speed-up %u threads / 1 thread: %.2f\n", threads, one.seconds / many.seconds);
    std::printf("per-core M warp-instructions per CPU second (1 thread): %.2f, ratio to the 2 M target: %.2f\n",
                one.insts / one.cpu_seconds / 1e6, one.insts / one.cpu_seconds / 2e6);
  });
}
