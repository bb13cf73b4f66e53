// rd-cache: L1 and L2 hit rates and memory latencies from reuse distances.
#include "formats/stream_json.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/io.hpp"
#include "libcommon/tool_options.hpp"
#include "rd_cache.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("rd-cache",
                        "Model L1 and L2 hit rates and memory access times from reuse distances "
                        "and add a cache record per kernel to the stream.",
                        argc, argv, {.threads = true, .force = true, .provenance = true});
  CLI::App& app = tool.app();
  sasskit::GpuOptions gpu_options(tool);
  sasskit::rdcache::Options opt;
  sasskit::StreamIo io;
  sasskit::PlacementChoice placement;
  std::string sweep, sweep_assoc, provenance_file;
  auto* format_opt = sasskit::add_stream_io_options(app, io, "Output stream, JSON or CSV");
  auto* sweep_opt = app.add_option("--sweep", sweep,
                                   "Write hit-rate CSV for these cache sizes instead of the stream, e.g. "
                                   "l1:32K,l1:64K,l2:2M (no level: both)")
                        ->excludes(format_opt);
  app.add_option("--provenance-file", provenance_file,
                 "With --sweep: write the provenance (the stages that made the input, then this one) to FILE "
                 "as JSON")
      ->needs(sweep_opt);
  app.add_option("--sweep-assoc", sweep_assoc,
                 "Associativities for --sweep, e.g. 4,16,0 (0 = fully associative; default: the "
                 "model's and 0)");
  app.add_option("--order", opt.order, "Access order within an SM: round-robin or serial")
      ->check(CLI::IsMember({"round-robin", "serial"}))
      ->capture_default_str();
  sasskit::add_placement_options(app, placement);
  app.add_flag("!--no-memcpy-l2", opt.memcpy_to_l2, "Do not let host-to-device copies fill L2");
  return tool.run([&] {
    const sasskit::GpuConfig gpu = gpu_options.config();
    opt.threads = tool.common().threads;
    opt.policy = sasskit::parse_policy(placement.policy);
    opt.serial_kernels = placement.serial_kernels;
    if (!sweep.empty()) opt.sweep = sasskit::rdcache::parse_sweep(sweep, sweep_assoc, gpu);
    sasskit::Input in(io.input);
    sasskit::stream::Reader reader(in.stream(), in.name());
    reader.expect_gpu({gpu.name, gpu_options.accept_other_gpu(), gpu_options.model_in_use()->fingerprint});
    const bool binary = sweep.empty() && io.format == "stream";
    sasskit::Output out(io.output, binary ? sasskit::OutputKind::Binary : sasskit::OutputKind::Text,
                        tool.common().force);
    sasskit::stream::Stage self =
        sasskit::stream::this_stage("rd-cache", tool.common().argv, tool.common().no_provenance,
                                    tool.common().effective_options, &*gpu_options.model_in_use());
    const auto provenance = sasskit::report_provenance(reader.header().provenance, self);
    std::unique_ptr<sasskit::rdcache::Sink> sink;
    if (!sweep.empty())
      sink = sasskit::rdcache::sweep_csv_sink(out.stream());
    else if (io.format == "json")
      sink = sasskit::rdcache::json_sink(out.stream(), gpu.name, provenance);
    else
      sink = sasskit::rdcache::stream_sink(out.stream(), out.name(), reader.header(), std::move(self));
    sasskit::rdcache::run_filter(reader, *sink, gpu, opt);
    in.check_read_error();
    if (!provenance_file.empty()) sasskit::write_provenance_file(provenance_file, provenance);
    out.commit();
  });
}
