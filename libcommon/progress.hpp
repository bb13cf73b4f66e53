// A one-line progress indicator on stderr, shown only when stderr is a
// terminal and --quiet is off; redrawn at most a few times per second.
#pragma once

#include <chrono>
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

}  // namespace sasskit
