// Shared by the libFuzzer targets: the input as a stream, and the rule every
// target checks: any bytes either parse or raise sasskit::Error; anything
// else (a crash, another exception, a sanitizer report) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "libcommon/diag.hpp"

namespace sasskit::fuzz {

inline std::string_view bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline std::istringstream stream(const uint8_t* data, size_t size) {
  return std::istringstream(std::string(bytes(data, size)));
}

// Runs `parse`, accepting a clean refusal (sasskit::Error) as a result.
template <class F>
int refuse_or_parse(F&& parse) {
  try {
    parse();
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace sasskit::fuzz
