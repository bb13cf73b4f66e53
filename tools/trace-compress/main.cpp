// trace-compress: an Accel-Sim trace or sasskit stream -> the sasskit archive.
#include "compress.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/count_option.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp tool("trace-compress",
                        "Compress an Accel-Sim trace (directory or kernelslist.g) or a sasskit "
                        "stream into a sasskit archive, indexed by kernel.",
                        argc, argv, {.force = true});
  CLI::App& app = tool.app();
  sasskit::compress::Options opt;
  std::string codec = "xz";
  uint32_t block_kib = opt.writer.block_bytes >> 10;
  uint64_t dict_mib = opt.writer.dict_bytes >> 20;
  app.add_option("input", opt.input, "Accel-Sim directory, kernelslist.g or stream (- = stdin stream)")
      ->required();
  app.add_option("-o,--output", opt.output, "Archive file (- = stdout)")->capture_default_str();
  app.add_option("--codec", codec, "Block compression: xz, zlib or none")
      ->check(CLI::IsMember({"xz", "zlib", "none"}))
      ->capture_default_str();
  app.add_option("--block-kib", block_kib, "Raw KiB of CTA data per compressed block")
      ->check(sasskit::count_in(1, 1u << 18))
      ->capture_default_str();
  app.add_option("--dict-mib", dict_mib, "Cap of each kernel's warp-sequence dictionary, MiB")
      ->check(sasskit::count_in(0, sasskit::archive::WriterOptions::kMaxDictBytes >> 20))
      ->capture_default_str();
  return tool.run([&] {
    opt.writer.codec = sasskit::archive::parse_codec(codec);
    opt.writer.block_bytes = block_kib << 10;
    opt.writer.dict_bytes = dict_mib << 20;
    sasskit::compress::run(opt, tool.common());
  });
}
