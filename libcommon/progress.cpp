#include "progress.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "diag.hpp"
#include "io.hpp"

namespace sasskit {

bool progress_enabled() { return stderr_is_terminal() && !quiet(); }

namespace {

constexpr char kClearLine[] = "\r\033[K";
volatile std::sig_atomic_t g_line_drawn = 0;
constexpr int kEndingSignals[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
struct sigaction g_before[std::size(kEndingSignals)];

void write_stderr(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Clears the line, then lets the signal do what it did before: another
// handler (removing temporaries, io.hpp) or the default, ending the tool.
extern "C" void clear_line_and_pass_on(int sig) {
  if (g_line_drawn) write_stderr(kClearLine);
  g_line_drawn = 0;
  for (size_t i = 0; i < std::size(kEndingSignals); ++i) {
    if (kEndingSignals[i] != sig) continue;
    ::sigaction(sig, &g_before[i], nullptr);
    if (g_before[i].sa_handler != SIG_DFL && g_before[i].sa_handler != SIG_IGN) return g_before[i].sa_handler(sig);
  }
  std::raise(sig);
}

void clear_line_on_signals() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (size_t i = 0; i < std::size(kEndingSignals); ++i) {
    struct sigaction ours {};
    ours.sa_handler = clear_line_and_pass_on;
    sigemptyset(&ours.sa_mask);
    ::sigaction(kEndingSignals[i], nullptr, &g_before[i]);
    if (g_before[i].sa_handler == SIG_IGN) continue;  // ignored stays ignored
    ::sigaction(kEndingSignals[i], &ours, nullptr);
  }
}

}  // namespace

void clear_progress_line() {
  if (!g_line_drawn) return;
  write_stderr(kClearLine);
  g_line_drawn = 0;
}

Progress::Progress() : active_(progress_enabled()) {}

Progress::~Progress() { done(); }

void Progress::update(const std::string& status) {
  if (!active_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  drawn_ = true;
  clear_line_on_signals();
  std::cerr.flush();
  write_stderr(kClearLine + program_name() + ": " + status);
  g_line_drawn = 1;
}

void Progress::done() {
  if (drawn_) clear_progress_line();
  drawn_ = false;
}

void WorkProgress::advance(uint64_t units) {
  done_ += units;
  if (!line_.active()) return;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  line_.update(what_ + ": " + percent_and_eta(double(done_), double(total_), elapsed.count()));
}

std::string percent_and_eta(double done, double total, double elapsed_s) {
  const double fraction = total > 0 ? std::min(done / total, 1.0) : 0;
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%.0f%%", 100 * fraction);
  if (fraction >= 0.01 && elapsed_s >= 1) {
    const long left = std::lround(elapsed_s * (1 - fraction) / fraction);
    std::snprintf(buf + n, sizeof buf - n, ", %ldm%02lds left", left / 60, left % 60);
  }
  return buf;
}

std::optional<uint64_t> regular_file_size(const std::string& path) {
  struct stat st {};
  const int status = path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st);
  if (status != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return std::nullopt;
  return uint64_t(st.st_size);
}

namespace {

ReadingJob* g_job = nullptr;  // the reading job now under way

}  // namespace

ReadingJob::ReadingJob(std::string name, const std::vector<std::string>& paths)
    : name_(std::move(name)), outer_(g_job) {
  expect(paths);
  g_job = this;
}

void ReadingJob::expect(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) total_ += regular_file_size(p).value_or(0);
}

ReadingJob::~ReadingJob() { g_job = outer_; }

void ReadingJob::read(uint64_t bytes) {
  read_ += bytes;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  line_.update("reading " + name_ + ": " + percent_and_eta(double(read_), double(total_), elapsed.count()));
}

namespace {

class ProgressReader : public std::streambuf {
 public:
  ProgressReader(std::streambuf& source, uint64_t size, std::string name)
      : source_(source), size_(size), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}

 protected:
  int_type underflow() override {
    const std::streamsize n = source_.sgetn(buffer_, sizeof buffer_);
    if (n <= 0) return traits_type::eof();
    setg(buffer_, buffer_, buffer_ + n);
    if (job_) {
      job_->read(uint64_t(n));
      return traits_type::to_int_type(buffer_[0]);
    }
    read_ += uint64_t(n);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    progress_.update("reading " + name_ + ": " + percent_and_eta(double(read_), double(size_), elapsed.count()));
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::streambuf& source_;
  uint64_t size_, read_ = 0;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  Progress progress_;
  ReadingJob* job_ = g_job;  // the job this file is part of, which draws the line
  char buffer_[1 << 16];
};

}  // namespace

std::unique_ptr<std::streambuf> progress_reader(std::streambuf& source, uint64_t size, std::string name) {
  return std::make_unique<ProgressReader>(source, size, std::move(name));
}

}  // namespace sasskit
