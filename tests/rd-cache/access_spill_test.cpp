// AccessSpill must give back exactly the accesses appended, whatever their
// lines (falling, far apart, at the top of the address space) and whatever
// the buffer loaded into held before.
#include "access_spill.hpp"

#include <gtest/gtest.h>

#include "same_accesses.hpp"

using namespace sasskit::rdcache;

using sasskit::rdcache::test::expect_same;

namespace {

WarpAccesses warp(std::vector<uint32_t> pos, std::vector<uint32_t> inst,
                  std::vector<uint32_t> line_begin, std::vector<LineAccess> lines) {
  return WarpAccesses{std::move(pos), std::move(inst), std::move(line_begin), std::move(lines)};
}

}  // namespace

TEST(AccessSpill, LoadsBackTheAccessesAppended) {
  const uint64_t top = UINT64_MAX >> 7;  // the last 128-byte line
  CtaAccesses big, small, empty;
  big.linear = 7;
  big.warps.push_back(warp({8, 9, 12}, {8, 9, 12}, {0, 1, 2, 3}, {{0x40, 0b1111}, {0x60, 0b1}, {0x50, 0b1000}}));
  big.warps.push_back(warp({}, {}, {0}, {}));
  big.warps.push_back(warp({0, 99999}, {70000, 3}, {0, 3, 5},
                           {{top, 0xf}, {0, 0x1}, {top - 1, 0x2}, {1, 0x80000000u}, {top, 0xffffffffu}}));
  small.linear = 3;
  small.warps.push_back(warp({4}, {1}, {0, 1}, {{0x1234, 0b10}}));
  AccessSpill spill;
  EXPECT_EQ(spill.append(big), 0u);
  EXPECT_EQ(spill.append(small), 1u);
  EXPECT_EQ(spill.append(empty), 2u);
  spill.flush();

  CtaAccesses out;  // reused, as the cache model does: nothing of a larger CTA stays
  spill.load(0, 7, out);
  expect_same(out, big);
  spill.load(1, 3, out);
  expect_same(out, small);
  spill.load(2, 0, out);
  expect_same(out, empty);
  spill.load(0, 9, out);
  big.linear = 9;
  expect_same(out, big);
}
