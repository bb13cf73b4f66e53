// "where: what" of the sasskit::Error a test body throws, or "" if none.
#pragma once

#include <functional>
#include <string>

#include "libcommon/diag.hpp"

namespace sasskit::test {

inline std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const Error& e) {
    return e.where() + ": " + e.what();
  }
  return "";
}

}  // namespace sasskit::test
