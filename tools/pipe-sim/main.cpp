// pipe-sim: the stall-aware sub-core SM pipeline simulator (pipe-sim(1)).
#include <fstream>
#include <memory>

#include "formats/stream_json.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/count_option.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/io.hpp"
#include "libcommon/tool_options.hpp"
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
  StreamIo io;
  PlacementChoice placement;
  std::string trace_stalls;
  add_stream_io_options(app, io, "Output stream or JSON");
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
  add_placement_options(app, placement);
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
    opt.policy = parse_policy(placement.policy);
    opt.serial_kernels = placement.serial_kernels;
    opt.threads = tool.common().threads;
    Input in(io.input);
    stream::Reader reader(in.stream(), in.name());
    reader.expect_gpu({opt.sim.gpu.name, gpu_options.accept_other_gpu(), gpu_options.model_in_use()->fingerprint});
    bool json = io.format == "json";
    Output out(io.output, json ? OutputKind::Text : OutputKind::Binary, tool.common().force);
    stream::Stage self =
        stream::this_stage("pipe-sim", tool.common().argv, tool.common().no_provenance,
                           tool.common().effective_options, &*gpu_options.model_in_use());
    const std::unique_ptr<pipesim::Sink> sink =
        json ? pipesim::json_sink(out.stream(), opt.sim.gpu.name, report_provenance(reader.header().provenance, std::move(self)))
             : pipesim::stream_sink(out.stream(), out.name(), reader.header(), std::move(self), !stats_only);
    pipesim::StreamOutput run;
    run.batches.batch_bytes = batch_mib << 20;
    run.batches.threads = opt.threads;
    run.sink = sink.get();
    auto results = pipesim::simulate_stream(reader, opt, run);
    in.check_read_error();
    pipesim::warn_if_hit_rate_keys_ignored(results, *gpu_options.model_in_use(), in.name());
    sink->finish();
    if (!trace_stalls.empty()) {
      Output trace(trace_stalls, OutputKind::Text, tool.common().force);
      pipesim::write_stall_trace(trace.stream(), results);
      trace.commit();
    }
    out.commit();
  });
}
