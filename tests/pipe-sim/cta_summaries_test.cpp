// What pipe-sim keeps of each spilled CTA: its place in the grid (held only
// once the stream leaves grid order) and its counts, shared among CTAs.
#include <gtest/gtest.h>

#include "cta_summaries.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;

namespace {

UnitCounts counts(uint64_t ints, uint64_t ldst) {
  UnitCounts u{};
  u[size_t(UnitClass::Int)] = ints;
  u[size_t(UnitClass::Ldst)] = ldst;
  return u;
}

TEST(CtaSummaries, CtasOfTheSameCountsShareThem) {
  CtaSummaries s;
  for (uint64_t i = 0; i < 5; ++i) s.add(i, counts(4, i == 3 ? 2 : 1));
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s.distinct().size(), 2u);
  EXPECT_EQ(s.units_id(0), s.units_id(4));
  EXPECT_NE(s.units_id(0), s.units_id(3));
  EXPECT_EQ(s.units(3), counts(4, 2));
  EXPECT_EQ(s.units(4), counts(4, 1));
}

TEST(CtaSummaries, GridPlacesSurviveTheStreamLeavingGridOrder) {
  CtaSummaries s;
  const std::vector<uint64_t> linear{0, 1, 2, 7, 3, 3};
  for (uint64_t l : linear) s.add(l, counts(1, 0));
  ASSERT_EQ(s.size(), linear.size());
  for (size_t i = 0; i < linear.size(); ++i) EXPECT_EQ(s.linear(i), linear[i]) << i;
}

}  // namespace
