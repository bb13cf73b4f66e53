// A small, portable, seedable random source. The standard distributions are
// implementation-defined, so generated traces would differ between standard
// libraries; these helpers give the same numbers everywhere.
#pragma once

#include <cstdint>

namespace sasskit::gen {

// SplitMix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
// generators", OOPSLA 2014): one 64-bit state, full period, good mixing.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by multiply-shift (Lemire); bound > 0.
  uint64_t below(uint64_t bound) {
    __extension__ using u128 = unsigned __int128;
    return uint64_t(u128(next()) * bound >> 64);
  }

 private:
  uint64_t state_;
};

// A seed for one independent stream, e.g. (run seed, launch, CTA), so each
// CTA's randomness does not depend on the order CTAs are generated in.
inline uint64_t derive_seed(uint64_t seed, uint64_t a, uint64_t b = 0) {
  Rng r(seed ^ (a * 0xd1b54a32d192ed03ull) ^ (b * 0xaef17502108ef2d9ull));
  return r.next();
}

}  // namespace sasskit::gen
