// The distinct units (sectors, words) of a warp access against a reference
// that marks every lane's units in a set: whether the lanes cluster (the
// bitmap) or scatter (the sort), come in order or not, repeat, straddle
// units or end at the top of the address space, and when the lanes touch
// more than kMaxUnits units.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "access_units.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;

namespace {

// The first kMaxUnits units lane by lane (with repeats), as a set.
std::vector<uint64_t> reference_units(const std::vector<uint64_t>& addrs, unsigned width, uint64_t unit) {
  std::set<uint64_t> units;
  uint64_t generated = 0;
  for (size_t l = 0; l < addrs.size() && l < 32 && generated < kMaxUnits; ++l) {
    uint64_t first = addrs[l] / unit, last = (addrs[l] + std::max(1u, width) - 1) / unit;
    if (last < first) continue;
    for (uint64_t u = first; u <= last && generated < kMaxUnits; ++u, ++generated) units.insert(u);
  }
  return {units.begin(), units.end()};
}

std::vector<uint64_t> distinct_units(const std::vector<uint64_t>& addrs, unsigned width, uint64_t unit) {
  std::vector<uint64_t> out;
  for_each_distinct_unit(addrs.data(), static_cast<unsigned>(addrs.size()), width, Divisor(unit),
                         [&](uint64_t u) { out.push_back(u); });
  return out;
}

void expect_reference(const std::vector<uint64_t>& addrs, unsigned width, uint64_t unit) {
  EXPECT_EQ(distinct_units(addrs, width, unit), reference_units(addrs, width, unit))
      << "width " << width << ", unit " << unit << ", first lane " << addrs.front();
}

TEST(AccessUnits, ClusteredScatteredUnorderedAndRepeatedLanesGiveTheUnionInOrder) {
  std::mt19937_64 rng(35);
  for (uint64_t unit : {4u, 32u, 64u}) {
    for (unsigned width : {1u, 4u, 8u, 16u}) {
      for (uint64_t spread : {uint64_t(64), uint64_t(4096), uint64_t(1) << 20}) {
        for (int trial = 0; trial < 50; ++trial) {
          const uint64_t base = rng() >> 8;
          std::vector<uint64_t> addrs(1 + rng() % 32);
          for (auto& a : addrs) a = base + rng() % spread;
          expect_reference(addrs, width, unit);
          std::sort(addrs.begin(), addrs.end());
          expect_reference(addrs, width, unit);
        }
      }
    }
  }
}

TEST(AccessUnits, AffineLanesUpAndDownAndAcrossUnits) {
  for (uint64_t unit : {4u, 32u}) {
    for (int64_t stride : {-64, -16, -4, 0, 1, 4, 12, 16, 36, 128, 4096}) {
      for (unsigned width : {1u, 4u, 16u}) {
        std::vector<uint64_t> addrs(32);
        for (size_t l = 0; l < addrs.size(); ++l) addrs[l] = uint64_t(1 << 20) + 6 + uint64_t(stride) * l;
        expect_reference(addrs, width, unit);
      }
    }
  }
}

TEST(AccessUnits, StridesAtTheEdgeOfLeavingAUnitUntouched) {
  // A gap between lanes of a unit less one byte cannot hold a whole unit;
  // a gap of a whole unit can, and does at some offsets.
  for (uint64_t unit : {4u, 32u}) {
    for (unsigned width : {1u, 4u, 16u}) {
      for (uint64_t stride : {width + unit - 1, width + unit, width + unit + 1}) {
        for (uint64_t offset = 0; offset < unit; ++offset) {
          std::vector<uint64_t> addrs(32);
          for (size_t l = 0; l < addrs.size(); ++l) addrs[l] = 4096 + offset + stride * l;
          expect_reference(addrs, width, unit);
          addrs.resize(1 + offset % 32);
          expect_reference(addrs, width, unit);
        }
      }
    }
  }
}

TEST(AccessUnits, LanesAtTheTopOfTheAddressSpace) {
  const uint64_t top = ~uint64_t(0);
  // A lane whose bytes wrap past 2^64 touches nothing; the others count.
  expect_reference({top - 3, top - 40, top - 100, top}, 16, 32);
  expect_reference({top - 15, top - 31}, 16, 4);
}

TEST(AccessUnits, LanesBeyondTheFirstMaxUnitsUnitsAreLeftOut) {
  // 32 lanes of 16 bytes in 4-byte words: 128 words, then repeats of them;
  // with a scattered set, kMaxUnits ends the lanes counted.
  std::vector<uint64_t> wide(32);
  for (size_t l = 0; l < wide.size(); ++l) wide[l] = 1000 * l;
  EXPECT_EQ(distinct_units(wide, 16, 1).size(), kMaxUnits);
  expect_reference(wide, 16, 1);
  expect_reference(wide, 16, 4);
}

}  // namespace
