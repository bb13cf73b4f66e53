// pipe-sim: the stall-aware sub-core SM pipeline simulator (pipe-sim(1)).
#include <fstream>
#include <memory>

#include "formats/stream_json.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/count_option.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/io.hpp"
#include "output.hpp"
#include "sm.hpp"

using namespace sasskit;

int main(int argc, char** argv) {
  ToolApp tool("pipe-sim",
               "Simulate the SM pipeline over the stream's CTAs, attribute every stall cycle to a root "
               "cause, and add a stats record per kernel.",
               argc, argv, {.threads = true, .force = true, .provenance = true});
  CLI::App& app = tool.app();
  GpuOptions gpu_options(tool);
  pipesim::RunOptions opt;
  std::string input = "-", output = "-", format = "stream", trace_stalls, policy = "round-robin";
  app.add_option("input", input, "Input stream (- = stdin)")->capture_default_str();
  app.add_option("-o,--output", output, "Output stream or JSON (- = stdout)")->capture_default_str();
  app.add_option("--format", format, "Output: stream, or json (a summary per kernel)")
      ->check(CLI::IsMember({"stream", "json"}))
      ->capture_default_str();
  app.add_option("--trace-stalls", trace_stalls,
                 "Write what every scheduler did in every cycle to FILE (tab-separated; small kernels)");
  app.add_flag("--pkp", opt.sim.pkp.enabled, "Stop kernels once their IPC is stable and project the rest");
  app.add_option("--pkp-s", opt.sim.pkp.s, "PKP: IPC standard deviation threshold")
      ->check(sasskit::positive_number())
      ->capture_default_str();
  app.add_option("--pkp-window", opt.sim.pkp.window, "PKP: window in cycles")
      ->check(sasskit::positive_number())
      ->capture_default_str();
  app.add_option("--pkp-max-error", opt.sim.pkp.max_error,
                 "PKP: stop a kernel only where the projection's estimated error is at most this fraction")
      ->check(sasskit::number_in(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--sched-policy", policy, "CTA placement without a sched record: round-robin, greedy, wave")
      ->check(CLI::IsMember({"round-robin", "greedy", "wave"}))
      ->capture_default_str();
  app.add_flag("--serial-kernels", opt.serial_kernels,
               "Run one kernel at a time on the GPU, whatever its stream, as Accel-Sim does by default "
               "(without it kernels of different streams share SMs, as on the GPU)");
  app.add_option("--l1-hit-rate", opt.memory.l1_hit, "L1 hit rate of memory PCs without a cache record")
      ->check(sasskit::number_in(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--l2-hit-rate", opt.memory.l2_hit, "L2 hit rate of memory PCs without a cache record")
      ->check(sasskit::number_in(0.0, 1.0))
      ->capture_default_str();
  bool stats_only = false;
  app.add_flag("--stats-only", stats_only,
               "Write every record except the cta records: the results without the trace (a small stream)");
  size_t batch_mib = 256;
  app.add_option("--batch-mib", batch_mib,
                 "Read complete kernels in batches of about this many MiB of cta records (kernels of a batch "
                 "share the GPU; a batch boundary waits for every kernel before it; their records wait in a "
                 "temporary file in $TMPDIR)")
      ->check(sasskit::count_in(1))
      ->capture_default_str();
  return tool.run([&] {
    opt.sim.gpu = gpu_options.config();
    pipesim::check_model_limits(opt.sim.gpu);
    opt.sim.trace_stalls = !trace_stalls.empty();
    opt.policy = parse_policy(policy);
    opt.threads = tool.common().threads;
    Input in(input);
    stream::Reader reader(in.stream(), in.name());
    reader.expect_gpu({opt.sim.gpu.name, gpu_options.accept_other_gpu()});
    bool json = format == "json";
    Output out(output, json ? OutputKind::Text : OutputKind::Binary, tool.common().force);
    stream::Stage self =
        stream::this_stage("pipe-sim", tool.common().argv, tool.common().no_provenance, opt.sim.gpu.name);
    const std::unique_ptr<pipesim::Sink> sink =
        json ? pipesim::json_sink(out.stream(), opt.sim.gpu.name, report_provenance(reader.header().provenance, std::move(self)))
             : pipesim::stream_sink(out.stream(), out.name(), reader.header(), std::move(self), !stats_only);
    pipesim::StreamOutput run;
    run.batches.batch_bytes = batch_mib << 20;
    run.batches.threads = opt.threads;
    run.sink = sink.get();
    auto results = pipesim::simulate_stream(reader, opt, run);
    in.check_read_error();
    pipesim::warn_if_hit_rate_keys_ignored(results, in.name());
    sink->finish();
    if (!trace_stalls.empty()) {
      Output trace(trace_stalls, OutputKind::Text, tool.common().force);
      pipesim::write_stall_trace(trace.stream(), results);
      trace.commit();
    }
    out.commit();
  });
}
