// rd-cache: L1 and L2 hit rates and memory latencies from reuse distances.
#include "formats/stream_json.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_options.hpp"
#include "libcommon/io.hpp"
#include "rd_cache.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("rd-cache",
                        "Model L1 and L2 hit rates and memory access times from reuse distances "
                        "and add a cache record per kernel to the stream.",
                        argc, argv, {.threads = true, .force = true, .provenance = true});
  CLI::App& app = tool.app();
  sasskit::GpuOptions gpu_options(tool);
  sasskit::rdcache::Options opt;
  std::string input = "-", output = "-", format = "stream", sweep, sweep_assoc, policy = "round-robin",
              provenance_file;
  app.add_option("input", input, "Input stream (- = stdin)")->capture_default_str();
  app.add_option("-o,--output", output, "Output stream, JSON or CSV (- = stdout)")->capture_default_str();
  auto* format_opt = app.add_option("--format", format, "Output: stream, or json (a summary per kernel)")
                         ->check(CLI::IsMember({"stream", "json"}))
                         ->capture_default_str();
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
  app.add_option("--sched-policy", policy, "CTA placement without a sched record: round-robin, greedy, wave")
      ->check(CLI::IsMember({"round-robin", "greedy", "wave"}))
      ->capture_default_str();
  app.add_flag("--serial-kernels", opt.serial_kernels,
               "Place one kernel at a time on the GPU, whatever its stream, as Accel-Sim does by default "
               "(without it kernels of different streams share SMs, and their L1s, as on the GPU)");
  app.add_flag("!--no-memcpy-l2", opt.memcpy_to_l2, "Do not let host-to-device copies fill L2");
  return tool.run([&] {
    const sasskit::GpuConfig gpu = gpu_options.config();
    opt.threads = tool.common().threads;
    opt.policy = sasskit::parse_policy(policy);
    if (!sweep.empty()) opt.sweep = sasskit::rdcache::parse_sweep(sweep, sweep_assoc, gpu);
    sasskit::Input in(input);
    sasskit::stream::Reader reader(in.stream(), in.name());
    reader.expect_gpu({gpu.name, gpu_options.accept_other_gpu()});
    const bool binary = sweep.empty() && format == "stream";
    sasskit::Output out(output, binary ? sasskit::OutputKind::Binary : sasskit::OutputKind::Text,
                        tool.common().force);
    sasskit::stream::Stage self =
        sasskit::stream::this_stage("rd-cache", tool.common().argv, tool.common().no_provenance, gpu.name);
    const auto provenance = sasskit::report_provenance(reader.header().provenance, self);
    std::unique_ptr<sasskit::rdcache::Sink> sink;
    if (!sweep.empty())
      sink = sasskit::rdcache::sweep_csv_sink(out.stream());
    else if (format == "json")
      sink = sasskit::rdcache::json_sink(out.stream(), gpu.name, provenance);
    else
      sink = sasskit::rdcache::stream_sink(out.stream(), out.name(), reader.header(), std::move(self));
    sasskit::rdcache::run_filter(reader, *sink, gpu, opt);
    in.check_read_error();
    if (!provenance_file.empty()) sasskit::write_provenance_file(provenance_file, provenance);
    out.commit();
  });
}
