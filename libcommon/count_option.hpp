// The check every unsigned count option shares (--launch-skip,
// --launch-count, --threads, --seed, ...).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace sasskit {

// Decimal digits only, no leading zero, within [lo, hi]. CLI11 parses an
// unsigned value with strtoull, which takes "-1" as 2^64 - 1, saturates
// 2^64 and reads "010" as octal; checked on the text, before that
// conversion, each of these is a usage error that names the option.
CLI::Validator count_in(uint64_t lo = 0, uint64_t hi = UINT64_MAX);

}  // namespace sasskit
