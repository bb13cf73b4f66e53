// Division by a divisor fixed for many values: a shift when it is a power
// of two (the usual sector, line, word and bank sizes), a division
// otherwise. The memory models divide every lane's address by the same few
// sizes, and a 64-bit division costs tens of cycles.
#pragma once

#include <bit>
#include <cstdint>

namespace sasskit {

class Divisor {
 public:
  // A power of two tested without std::has_single_bit, a call into libgcc
  // where the build targets every x86-64 (no -mpopcnt).
  explicit Divisor(uint64_t d) : d_(d), shift_(d != 0 && (d & (d - 1)) == 0 ? std::countr_zero(d) : -1) {}
  uint64_t div(uint64_t x) const { return shift_ >= 0 ? x >> shift_ : x / d_; }
  uint64_t mod(uint64_t x) const { return shift_ >= 0 ? x & (d_ - 1) : x % d_; }
  uint64_t divisor() const { return d_; }

 private:
  uint64_t d_;
  int shift_;
};

}  // namespace sasskit
