// trace-unpack: an archive, Accel-Sim trace or stream -> the stream,
// Accel-Sim text or JSON Lines.
#include <map>

#include "libcommon/cli.hpp"
#include "unpack.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("trace-unpack",
                        "Expand a sasskit archive or an Accel-Sim trace into the sasskit stream, "
                        "Accel-Sim text or JSON Lines.",
                        argc, argv, {.threads = true, .force = true, .provenance = true});
  CLI::App& app = tool.app();
  sasskit::unpack::Options opt;
  std::string ctas;
  const std::map<std::string, sasskit::unpack::Target> targets{
      {"stream", sasskit::unpack::Target::Stream},
      {"accelsim", sasskit::unpack::Target::Accelsim},
      {"jsonl", sasskit::unpack::Target::Jsonl}};
  app.add_option("input", opt.input, "Archive, stream, Accel-Sim directory or kernelslist.g (- = stdin)")
      ->capture_default_str();
  app.add_option("-o,--output", opt.output,
                 "Output file, or directory for --to accelsim (- = stdout)")
      ->capture_default_str();
  std::string target = "stream";
  app.add_option("--to", target, "Output form")
      ->check(CLI::IsMember({"stream", "accelsim", "jsonl"}))
      ->capture_default_str();
  sasskit::add_kernel_selection_options(app, opt.kernels);
  app.add_option("--ctas", ctas, "Only the CTAs of linear index A to B of each kernel, e.g. 0-79 (CTA-range shards)");
  app.add_option("--plan", opt.plan,
                 "Only the kernels of this kernel-select plan (stream or CSV); forwards the plan");
  return tool.run([&] {
    opt.target = targets.at(target);
    if (!ctas.empty()) opt.ctas = sasskit::unpack::CtaRange::parse(ctas);
    sasskit::unpack::run(opt, tool.common());
  });
}
