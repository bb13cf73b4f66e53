#include "progress.hpp"

#include <iostream>

#include "diag.hpp"
#include "io.hpp"

namespace sasskit {

Progress::Progress() : active_(stderr_is_terminal() && !quiet()) {}

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

}  // namespace sasskit
