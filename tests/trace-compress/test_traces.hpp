// Deterministic generated kernels with every case the archive codec must
// keep: all address modes, mask 0, single lanes, divergent masks, huge and
// wrapping addresses, negative strides, random gathers, repeated and unique
// warp sequences.
#pragma once

#include <cstdint>

#include "archive_fixture.hpp"

namespace sasskit::testing {

struct GenOptions {
  uint32_t id = 1;
  Dim3 grid{4, 2, 1};
  uint32_t warps = 4;
  uint32_t iterations = 3;
  uint64_t seed = 1;
  bool random_modes = true;  // else each instruction keeps one mode
};

KernelTrace generate_kernel(const GenOptions& options);

}  // namespace sasskit::testing
