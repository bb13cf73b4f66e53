#include "io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <boost/iostreams/stream.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <utility>

#include "diag.hpp"
#include "progress.hpp"

namespace sasskit {
namespace bio = boost::iostreams;

namespace {
enum class Compression { None, Gzip, Xz };
constexpr unsigned char kXzMagic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

Compression compression_of(std::string_view head) {
  const auto* b = reinterpret_cast<const unsigned char*>(head.data());
  if (head.size() >= 2 && b[0] == 0x1f && b[1] == 0x8b) return Compression::Gzip;
  if (head.size() >= 6 && std::memcmp(b, kXzMagic, 6) == 0) return Compression::Xz;
  return Compression::None;
}

// Reads up to `n` bytes however few each read() returns (a slow pipe may
// give one byte at a time); fewer only at end of input.
std::string read_head(std::streambuf& src, size_t n) {
  std::string head(n, '\0');
  size_t got = 0;
  while (got < n) {
    std::streamsize r = src.sgetn(head.data() + got, static_cast<std::streamsize>(n - got));
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  head.resize(got);
  return head;
}

// Gives back the bytes read to detect the compression, then the rest of the
// source. A read error of the source becomes an Io error naming the input.
class ReplayBuf : public std::streambuf {
 public:
  ReplayBuf(std::streambuf& src, std::string head, std::string name)
      : src_(src), head_(std::move(head)), name_(std::move(name)) {
    setg(head_.data(), head_.data(), head_.data() + head_.size());
  }

 protected:
  int_type underflow() override {
    const std::streamsize n = read_source(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (n <= 0) return traits_type::eof();
    setg(buf_.data(), buf_.data(), buf_.data() + n);
    return traits_type::to_int_type(buf_[0]);
  }

  // What is held first, then the rest straight from the source: a reader
  // taking large blocks (a trace's text) gets them without a copy through
  // buf_.
  std::streamsize xsgetn(char* s, std::streamsize n) override {
    const std::streamsize held = std::min<std::streamsize>(n, egptr() - gptr());
    std::memcpy(s, gptr(), static_cast<size_t>(held));
    gbump(static_cast<int>(held));
    if (held == n) return n;
    const std::streamsize got = read_source(s + held, n - held);
    return held + std::max<std::streamsize>(got, 0);
  }

 private:
  std::streamsize read_source(char* s, std::streamsize n) {
    try {
      return src_.sgetn(s, n);
    } catch (const std::exception& e) {
      fail_io(name_, std::string("read error: ") + e.what());
    }
  }

  std::streambuf& src_;
  std::string head_;
  std::string name_;
  std::array<char, 1 << 16> buf_{};
};

// A decompressor whose errors name the input: damaged compressed data is
// bad input (exit 3), not an internal error.
template <class Decompressor>
class NamedDecompressor {
 public:
  using char_type = char;
  struct category : bio::multichar_input_filter_tag, bio::closable_tag {};
  NamedDecompressor(std::string name, const char* format) : name_(std::move(name)), format_(format) {}

  template <class Source>
  std::streamsize read(Source& src, char* s, std::streamsize n) {
    try {
      return inner_.read(src, s, n);
    } catch (const Error&) {
      throw;
    } catch (const std::exception&) {
      fail_input(name_, std::string("damaged ") + format_ + " data");
    }
  }
  template <class Source>
  void close(Source& src) {
    try {
      inner_.close(src, std::ios_base::in);
    } catch (const std::exception&) {
      fail_input(name_, std::string("damaged ") + format_ + " data");
    }
  }

 private:
  Decompressor inner_;
  std::string name_;
  const char* format_;
};
}  // namespace

struct Input::Impl {
  std::ifstream file;
  std::unique_ptr<std::streambuf> shown;  // the file through a progress line
  std::unique_ptr<ReplayBuf> replay;
  std::unique_ptr<std::istream> raw;
  bio::filtering_istream filtered;
};

Input::Input(const std::string& path) : impl_(std::make_unique<Impl>()) {
  std::streambuf* src = std::cin.rdbuf();
  name_ = path == "-" ? "<stdin>" : path;
  if (path != "-") {
    if (std::filesystem::is_directory(path)) fail_io(path, "is a directory");
    impl_->file.open(path, std::ios::binary);
    if (!impl_->file) fail_io(path, std::strerror(errno));
    src = impl_->file.rdbuf();
  }
  // Only a file's reading is shown: a pipe's is its writer's, which draws
  // its own line (progress.hpp).
  if (const auto size = regular_file_size(path); size && progress_enabled()) {
    impl_->shown = progress_reader(*src, *size, name_);
    src = impl_->shown.get();
  }
  std::string head = read_head(*src, 6);
  const Compression kind = compression_of(head);
  impl_->replay = std::make_unique<ReplayBuf>(*src, std::move(head), name_);
  impl_->raw = std::make_unique<std::istream>(impl_->replay.get());
  impl_->raw->exceptions(std::ios::badbit);
  switch (kind) {
    case Compression::None:
      stream_ = impl_->raw.get();
      return;
    case Compression::Gzip:
      impl_->filtered.push(NamedDecompressor<bio::gzip_decompressor>(name_, "gzip"));
      break;
    case Compression::Xz:
      impl_->filtered.push(NamedDecompressor<bio::lzma_decompressor>(name_, "xz"));
      break;
  }
  impl_->filtered.push(*impl_->raw);
  impl_->filtered.exceptions(std::ios::badbit);
  stream_ = &impl_->filtered;
}

Input::~Input() = default;

void Input::check_read_error() const {
  if (stream_->bad()) fail_io(name_, "read error");
}

namespace {
// Temporaries removed if a signal ends the run. Fixed slots, so the handler
// only reads memory and makes system calls.
constexpr size_t kTempSlots = 64;
constexpr size_t kTempPathMax = 4096;
enum SlotState : std::sig_atomic_t { kFree = 0, kFile = 1, kDirectory = 2 };
char g_temp_paths[kTempSlots][kTempPathMax];
volatile std::sig_atomic_t g_temp_state[kTempSlots];
std::mutex g_temp_mutex;

// Removes a directory holding only files, with system calls alone.
void remove_directory_of_files(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;) {
    for (long off = 0; off < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buf + off);
      ::unlinkat(fd, d->d_name, 0);  // fails harmlessly on "." and ".."
      off += d->d_reclen;
    }
  }
  ::close(fd);
  ::rmdir(path);
}

extern "C" void remove_temporaries_and_die(int sig) {
  clear_progress_line();
  for (size_t i = 0; i < kTempSlots; ++i) {
    if (g_temp_state[i] == kFile) ::unlink(g_temp_paths[i]);
    if (g_temp_state[i] == kDirectory) remove_directory_of_files(g_temp_paths[i]);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_signal_cleanup() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    std::signal(sig, remove_temporaries_and_die);
  }
}
}  // namespace

RemoveOnSignal::RemoveOnSignal(const std::string& path, bool directory) {
  std::lock_guard<std::mutex> lock(g_temp_mutex);
  install_signal_cleanup();
  if (path.size() >= kTempPathMax) return;
  for (size_t i = 0; i < kTempSlots; ++i) {
    if (g_temp_state[i] != kFree) continue;
    std::memcpy(g_temp_paths[i], path.c_str(), path.size() + 1);
    g_temp_state[i] = directory ? kDirectory : kFile;
    slot_ = i;
    return;
  }
  // All slots taken (no run opens 64 outputs at once): a signal may leave this one.
}

CleanupSignalsHeld::CleanupSignalsHeld() {
  sigset_t cleanup;
  sigemptyset(&cleanup);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&cleanup, sig);
  ::pthread_sigmask(SIG_BLOCK, &cleanup, &before_);
}

CleanupSignalsHeld::~CleanupSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

RemoveOnSignal::~RemoveOnSignal() {
  std::lock_guard<std::mutex> lock(g_temp_mutex);
  if (slot_ < kTempSlots) g_temp_state[slot_] = kFree;
}

Temporary::Temporary(Temporary&& other) noexcept
    : path_(std::exchange(other.path_, {})), on_signal_(std::move(other.on_signal_)) {}

Temporary& Temporary::operator=(Temporary&& other) noexcept {
  std::swap(path_, other.path_);
  std::swap(on_signal_, other.on_signal_);
  return *this;
}

Temporary::~Temporary() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void Temporary::rename_to(const std::string& target, const std::string& name) {
  std::error_code ec;
  std::filesystem::rename(path_, target, ec);
  if (ec) fail_io(name, "cannot rename temporary file: " + ec.message());
  path_.clear();
  on_signal_.reset();
}

Temporary create_temporary_beside(const std::string& path, int* fd) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(rd() % 1000000000);
    Temporary t;
    int f, error;
    {
      const CleanupSignalsHeld held;
      f = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      error = errno;
      if (f >= 0) {
        t.path_ = name;
        t.on_signal_ = std::make_unique<RemoveOnSignal>(name, false);
      }
    }
    if (f < 0 && error == EEXIST) continue;  // taken, or planted: another name
    if (f < 0) fail_io(path, std::string("cannot write: ") + std::strerror(error));
    if (fd) *fd = f;
    else ::close(f);
    return t;
  }
  fail_io(path, "cannot create a temporary file beside it: every name tried exists");
}

namespace {
// Writes go through the descriptor the temporary was created with, never
// through its name again.
using DescriptorStream = bio::stream<bio::file_descriptor_sink>;
constexpr std::streamsize kOutputBuffer = 1 << 16;

// A device, FIFO or socket named by -o is written in place: renaming a
// temporary over it would replace the node with a regular file.
bool is_special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}
}  // namespace

Output::Output(const std::string& path, OutputKind kind, bool force) : path_(path) {
  if (path == "-") {
    name_ = "<stdout>";
    if (kind == OutputKind::Binary && !force && ::isatty(STDOUT_FILENO))
      fail_usage("refusing to write a binary stream to a terminal (use -o FILE, a pipe, or --force)");
    stream_ = &std::cout;
    return;
  }
  name_ = path;
  if (std::filesystem::is_directory(path)) fail_io(path, "cannot write: is a directory");
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_io(path, "cannot write: directory " + dir.string() + " does not exist");
  int fd = -1;
  if (is_special_file(path)) {
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail_io(path, std::string("cannot write: ") + std::strerror(errno));
  } else {
    temporary_ = create_temporary_beside(path, &fd);
  }
  auto f = std::make_unique<DescriptorStream>(bio::file_descriptor_sink(fd, bio::close_handle), kOutputBuffer);
  stream_ = f.get();
  file_ = std::move(f);
}

void Output::commit() {
  check_written(*stream_, name_);
  if (file_) {
    try {
      static_cast<DescriptorStream&>(*file_).close();
    } catch (const std::exception&) {
      fail_io(name_, "write failed on close");
    }
    if (file_->fail()) fail_io(name_, "write failed on close");
    if (!temporary_.path().empty()) temporary_.rename_to(path_, name_);
  }
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  if (!out) fail_io(name, "write failed");
  if (&out == &std::cout && std::fflush(stdout) != 0)
    fail_io(name, std::string("write failed: ") + std::strerror(errno));
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO); }

}  // namespace sasskit
