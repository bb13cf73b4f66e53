#include "libcommon/divisor.hpp"

#include <gtest/gtest.h>

using namespace sasskit;

// A shift for powers of two, a division otherwise: the same quotients and
// remainders as / and % either way, up to the largest 64-bit values.
TEST(Divisor, DividesAsTheOperatorsDoWithOrWithoutAShift) {
  const uint64_t divisors[] = {1, 2, 3, 4, 24, 32, 96, 128, uint64_t(1) << 40};
  const uint64_t values[] = {0, 1, 31, 32, 33, 127, 4096 + 7, 0x7f4c2a000013, UINT64_MAX};
  for (uint64_t d : divisors) {
    const Divisor by(d);
    for (uint64_t x : values) {
      EXPECT_EQ(by.div(x), x / d) << x << " / " << d;
      EXPECT_EQ(by.mod(x), x % d) << x << " % " << d;
    }
  }
}
