// libFuzzer target: the archive reader, whole files (header, index, trailer,
// block CRCs, codecs). The reader takes a path, so the input lives in a
// memory file. Each input is read with one thread and with three (the
// blocks then decompressed on the threads, trace-unpack -j): both must give
// the same CTAs and end with the same error, or none.
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "formats/archive.hpp"
#include "fuzz_input.hpp"

namespace {

struct Outcome {
  std::vector<sasskit::CtaTrace> ctas;
  std::string error;  // the first refusal's message, if any
  bool operator==(const Outcome&) const = default;
};

Outcome read_all(const std::string& path, unsigned threads) {
  using namespace sasskit;
  Outcome out;
  try {
    archive::ArchiveReader reader(path);
    for (const auto& e : reader.entries())
      if (const auto* k = std::get_if<archive::KernelEntry>(&e))
        reader.read_kernel(
            *k, accelsim::KernelSink{nullptr, nullptr, [&](const CtaTrace& c) { out.ctas.push_back(c); }}, threads);
  } catch (const Error& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = ::memfd_create("archive_fuzz", 0);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != ssize_t(size)) __builtin_trap();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (!(read_all(path, 1) == read_all(path, 3))) __builtin_trap();  // threads changed what was read
  return 0;
}
