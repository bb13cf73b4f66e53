// libFuzzer target: the archive reader, whole files (header, index, trailer,
// block CRCs, codecs). The reader takes a path, so the input lives in a
// memory file.
#include <sys/mman.h>
#include <unistd.h>

#include "formats/archive.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sasskit;
  static const int fd = ::memfd_create("archive_fuzz", 0);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != ssize_t(size)) __builtin_trap();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  return fuzz::refuse_or_parse([&] {
    archive::ArchiveReader reader(path);
    for (const auto& e : reader.entries())
      if (const auto* k = std::get_if<archive::KernelEntry>(&e))
        reader.read_kernel(*k, accelsim::KernelSink{nullptr, nullptr, [](const CtaTrace&) {}});
  });
}
