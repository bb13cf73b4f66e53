#include "formats/archive_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "formats/archive.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/progress.hpp"

namespace sasskit::archive {

void read_archive(const std::string& path, KernelSelector& selection, TraceHandler& handler,
                  const std::string& name, unsigned threads) {
  const std::string& shown = name.empty() ? path : name;
  ArchiveReader reader(path, shown);
  // Progress by CTAs, which the index counts per kernel; a copy of the
  // selector counts them, since selecting advances --launch-skip and --launch-count.
  WorkProgress progress("reading " + shown);
  KernelSelector counting = selection;
  for (const Entry& e : reader.entries())
    if (const auto* k = std::get_if<KernelEntry>(&e); k && counting.select(k->info)) progress.expect(k->ctas);
  accelsim::KernelSink sink{[&](const KernelInfo& k) { handler.kernel(k); },
                            [&](const InstTable& t) { handler.insts(t); },
                            [&](CtaTrace& c) {  // decoded afresh each time, so taken, not copied
                              handler.take_cta(c);
                              progress.advance();
                            }};
  for (const Entry& e : reader.entries()) {
    if (const auto* copy = std::get_if<Memcpy>(&e))
      handler.memcpy(*copy);
    else if (const auto& k = std::get<KernelEntry>(e); selection.select(k.info))
      reader.read_kernel(k, sink, threads);
  }
}

namespace {

// An open descriptor, closed with its owner.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Removes a file's name when it goes out of scope.
struct UnlinkAtExit {
  const std::string& path;
  ~UnlinkAtExit() { ::unlink(path.c_str()); }
};

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io(path, std::string("cannot copy standard input here: ") + std::strerror(errno));
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

std::string temporary_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

}  // namespace

void read_archive(Input& in, std::string_view head, KernelSelector& selection, TraceHandler& handler,
                  unsigned threads) {
  const std::string dir = temporary_dir();
  std::string path = dir + "/sasskit-stdin-XXXXXX";
  std::optional<RemoveOnSignal> on_signal;
  int fd, error;
  {
    const CleanupSignalsHeld held;
    fd = ::mkostemp(path.data(), O_CLOEXEC);
    error = errno;
    if (fd >= 0) on_signal.emplace(path, false);
  }
  Descriptor spool(fd);
  if (spool.get() < 0)
    fail_io(dir, std::string("cannot make a temporary file here for the archive on stdin: ") + std::strerror(error));
  {
    const UnlinkAtExit unlink{path};
    write_all(spool.get(), head, path);
    std::string buffer(1 << 20, '\0');
    while (in.stream().read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.stream().gcount() > 0)
      write_all(spool.get(), std::string_view(buffer.data(), static_cast<size_t>(in.stream().gcount())), path);
    in.check_read_error();
  }
  on_signal.reset();
  // The name is gone; the open descriptor still reaches the copy.
  read_archive("/proc/self/fd/" + std::to_string(spool.get()), selection, handler, in.name(), threads);
}

}  // namespace sasskit::archive
