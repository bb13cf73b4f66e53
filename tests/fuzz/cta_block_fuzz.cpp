// libFuzzer target: the CTA block decoder past the CRC, the part of an
// archive a damaged block with a matching CRC would reach. A fixed table
// of plain, memory and branch instructions gives the payload meaning. The
// trend tables are small (the decoding is the same, only its predictions
// differ), so that an input costs microseconds instead of clearing 12 MiB.
#include "formats/archive_cta.hpp"
#include "formats/records.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  static const std::vector<StaticInst> table = {
      {0x00, std::nullopt, "S2R", {1}, {}, 0, std::nullopt},
      {0x10, std::nullopt, "LDG.E.SYS", {2}, {4}, 4, std::nullopt},
      {0x20, std::nullopt, "STG.E.64", {}, {4, 6}, 8, std::nullopt},
      {0x30, std::nullopt, "BRA", {}, {}, 0, std::nullopt},
      {0x40, std::nullopt, "EXIT", {}, {}, 0, std::nullopt}};
  KernelInfo kernel;
  kernel.id = 1;
  kernel.grid = {4, 2, 1};
  kernel.block = {128, 1, 1};
  return fuzz::refuse_or_parse([&] {
    archive::CtaDecoder decoder(kernel, 1 << 20, 8);
    decoder.decode(fuzz::bytes(data, size), table, "fuzz block",
                   [&](const CtaTrace& c) { stream::validate_cta(c, table, "fuzz cta"); });
  });
}
