#include "io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>

#include "diag.hpp"
#include "progress.hpp"

namespace sasskit {
namespace bio = boost::iostreams;

Compression detect_compression(std::istream& in) {
  std::array<unsigned char, 6> magic{};
  std::streambuf* buf = in.rdbuf();
  // Peek through the buffer and step back, so the bytes stay for the reader.
  size_t n = 0, advanced = 0;
  for (int c = buf->sgetc(); c != EOF; c = buf->snextc(), ++advanced) {
    magic[n++] = static_cast<unsigned char>(c);
    if (n == magic.size()) break;
  }
  for (; advanced > 0; --advanced) buf->sungetc();
  if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Compression::Gzip;
  static const unsigned char xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
  if (n == 6 && std::memcmp(magic.data(), xz, 6) == 0) return Compression::Xz;
  return Compression::None;
}

namespace {
// The size of the file behind `path` ("-": stdin) when it is a non-empty
// regular file, so the share read can be shown.
std::optional<uint64_t> regular_file_size(const std::string& path) {
  struct stat st {};
  const int status = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  if (status != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return std::nullopt;
  return uint64_t(st.st_size);
}
}  // namespace

struct Input::Impl {
  std::ifstream file;
  std::unique_ptr<std::streambuf> shown;  // the file through a progress line
  std::unique_ptr<std::istream> shown_stream;
  bio::filtering_istream filtered;
};

Input::Input(const std::string& path) : impl_(std::make_unique<Impl>()) {
  std::istream* raw = &std::cin;
  name_ = path == "-" ? "<stdin>" : path;
  if (path != "-") {
    if (std::filesystem::is_directory(path)) fail_io(path, "is a directory");
    impl_->file.open(path, std::ios::binary);
    if (!impl_->file) fail_io(path, std::strerror(errno));
    raw = &impl_->file;
  }
  if (const auto size = regular_file_size(path); size && progress_enabled()) {
    impl_->shown = progress_reader(*raw->rdbuf(), *size, name_);
    impl_->shown_stream = std::make_unique<std::istream>(impl_->shown.get());
    raw = impl_->shown_stream.get();
  }
  switch (detect_compression(*raw)) {
    case Compression::None:
      stream_ = raw;
      return;
    case Compression::Gzip:
      impl_->filtered.push(bio::gzip_decompressor());
      break;
    case Compression::Xz:
      impl_->filtered.push(bio::lzma_decompressor());
      break;
  }
  impl_->filtered.push(*raw);
  impl_->filtered.exceptions(std::ios::badbit);
  stream_ = &impl_->filtered;
}

Input::~Input() = default;

void Input::check_read_error() const {
  if (stream_->bad()) fail_io(name_, "read error");
}

namespace {
std::string temporary_name_for(const std::string& path) {
  std::random_device rd;
  return path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(rd() % 100000);
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
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    fail_io(path, "cannot write: directory " + dir.string() + " does not exist");
  tmp_path_ = temporary_name_for(path);
  auto f = std::make_unique<std::ofstream>(tmp_path_, std::ios::binary | std::ios::trunc);
  if (!*f) fail_io(path, std::string("cannot write: ") + std::strerror(errno));
  stream_ = f.get();
  file_ = std::move(f);
}

Output::~Output() {
  if (file_ && !committed_) {
    file_.reset();
    std::error_code ec;
    std::filesystem::remove(tmp_path_, ec);
  }
}

void Output::commit() {
  check_written(*stream_, name_);
  if (file_) {
    static_cast<std::ofstream&>(*file_).close();
    if (file_->fail()) fail_io(name_, "write failed on close");
    std::error_code ec;
    std::filesystem::rename(tmp_path_, path_, ec);
    if (ec) fail_io(name_, "cannot rename temporary file: " + ec.message());
  }
  committed_ = true;
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  if (!out) fail_io(name, "write failed");
  if (&out == &std::cout && std::fflush(stdout) != 0)
    fail_io(name, std::string("write failed: ") + std::strerror(errno));
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO); }

}  // namespace sasskit
