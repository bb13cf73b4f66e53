#include "progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "diag.hpp"
#include "io.hpp"

namespace sasskit {

bool progress_enabled() { return stderr_is_terminal() && !quiet(); }

Progress::Progress() : active_(progress_enabled()) {}

Progress::~Progress() { done(); }

void Progress::update(const std::string& status) {
  if (!active_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  drawn_ = true;
  std::cerr << "\r\033[K" << program_name() << ": " << status << std::flush;
}

void Progress::done() {
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
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

std::string amount_and_rate(double bytes, double elapsed_s) {
  constexpr double kMiB = 1 << 20;
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / kMiB);
  if (elapsed_s >= 1) std::snprintf(buf + n, sizeof buf - n, ", %.0f MiB/s", bytes / kMiB / elapsed_s);
  return buf;
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
    read_ += uint64_t(n);
    setg(buffer_, buffer_, buffer_ + n);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    progress_.update("reading " + name_ + ": " +
                     (size_ > 0 ? percent_and_eta(double(read_), double(size_), elapsed.count())
                                : amount_and_rate(double(read_), elapsed.count())));
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::streambuf& source_;
  uint64_t size_, read_ = 0;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  Progress progress_;
  char buffer_[1 << 16];
};

}  // namespace

std::unique_ptr<std::streambuf> progress_reader(std::streambuf& source, uint64_t size, std::string name) {
  return std::make_unique<ProgressReader>(source, size, std::move(name));
}

}  // namespace sasskit
