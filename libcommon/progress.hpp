// A one-line progress indicator on stderr, shown only when stderr is a
// terminal and --quiet is off; redrawn at most a few times per second.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <streambuf>
#include <string>

namespace sasskit {

class Progress {
 public:
  Progress();
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Redraws the line with `status` unless it was redrawn very recently.
  void update(const std::string& status);
  // Clears the line.
  void done();

 private:
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// Whether progress lines are drawn: stderr is a terminal and no --quiet.
bool progress_enabled();

// "42%, 1m05s left" for `done` of `total` after `elapsed_s` seconds; the
// time left is omitted until 1% and 1 s have passed and a rate is known.
std::string percent_and_eta(double done, double total, double elapsed_s);

// "120 MiB, 45 MiB/s" for `bytes` read after `elapsed_s` seconds: progress
// where the total is not known (a pipe); the rate is omitted before 1 s.
std::string amount_and_rate(double bytes, double elapsed_s);

// A stream buffer that passes `source` (a file of `size` bytes, 0 when not
// known) through unchanged and shows on the progress line how much of
// `name` was read: a percentage and the time left, or without a size the
// amount and the rate.
std::unique_ptr<std::streambuf> progress_reader(std::streambuf& source, uint64_t size, std::string name);

}  // namespace sasskit
