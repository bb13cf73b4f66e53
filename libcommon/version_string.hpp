// The sasskit version the tools were built as ("0.1.0"), for --version and
// each stage's provenance entry.
#pragma once

#include <string>

namespace sasskit {

std::string version_string();

}  // namespace sasskit
