#include "libcommon/cta_unit_counts.hpp"

#include <gtest/gtest.h>

using namespace sasskit;

namespace {
UnitCounts with_sp(uint64_t n) {
  UnitCounts c{};
  c[size_t(UnitClass::Sp)] = n;
  return c;
}
}  // namespace

TEST(CtaUnitCounts, GivesEachCtaItsOwnCountsWhateverTheOrderOfArrival) {
  CtaUnitCounts counts;
  for (uint32_t i : {3u, 0u, 2u, 1u}) EXPECT_TRUE(counts.add(i, with_sp(i % 2 ? 7 : 9)));
  EXPECT_EQ(counts.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(counts[i], with_sp(i % 2 ? 7 : 9)) << i;
  // CTAs of equal counts share one number in the table.
  EXPECT_EQ(counts.id(1), counts.id(3));
  EXPECT_NE(counts.id(0), counts.id(1));
  EXPECT_EQ(counts.table().size(), 2u);
  EXPECT_EQ(counts.table()[counts.id(2)], with_sp(9));
}

TEST(CtaUnitCounts, RefusesACtaAddedTwice) {
  CtaUnitCounts counts;
  EXPECT_TRUE(counts.add(5, with_sp(1)));
  EXPECT_FALSE(counts.add(5, with_sp(2)));
  EXPECT_EQ(counts[5], with_sp(1));
  EXPECT_EQ(counts.size(), 1u);
  EXPECT_TRUE(counts.contains(5));
  EXPECT_FALSE(counts.contains(4));
}

// A CTA at the end of a huge declared grid, first to arrive, waits aside:
// nothing is allocated for the grid positions before it. As CTAs fill in,
// it moves into the table and is still found (and still a duplicate).
TEST(CtaUnitCounts, ACtaFarAheadWaitsUntilTheCtasBeforeItArrive) {
  CtaUnitCounts counts;
  const uint32_t last = UINT32_MAX - 1;
  EXPECT_TRUE(counts.add(last, with_sp(3)));
  EXPECT_TRUE(counts.contains(last));
  EXPECT_FALSE(counts.contains(0));
  const uint32_t near = 20000;
  EXPECT_TRUE(counts.add(near, with_sp(4)));
  for (uint32_t i = 0; i < near; ++i) ASSERT_TRUE(counts.add(i, with_sp(5)));
  EXPECT_EQ(counts[near], with_sp(4));
  EXPECT_EQ(counts[near - 1], with_sp(5));
  EXPECT_EQ(counts[last], with_sp(3));
  EXPECT_FALSE(counts.add(near, with_sp(6)));
  EXPECT_FALSE(counts.add(last, with_sp(6)));
  EXPECT_EQ(counts.size(), uint64_t(near) + 2);
}

// Counts of every size survive their compact form, and equal counts share
// one number while different ones never do.
TEST(UnitCountsTable, NumbersEachDistinctCountsOnceAndGivesThemBack) {
  UnitCountsTable table;
  std::vector<UnitCounts> distinct;
  for (uint64_t i = 1; i <= 5000; ++i) {
    UnitCounts c{};
    for (size_t u = 0; u < c.size(); ++u) c[u] = (i * 2654435761ULL) << (u * 9) >> (u % 3);
    distinct.push_back(c);
  }
  distinct.push_back(UnitCounts{});
  UnitCounts top{};
  top.fill(UINT64_MAX);
  distinct.push_back(top);
  for (size_t i = 0; i < distinct.size(); ++i) ASSERT_EQ(table.intern(distinct[i]), i) << i;
  for (size_t i = distinct.size(); i-- > 0;) {
    EXPECT_EQ(table.intern(distinct[i]), i);
    EXPECT_EQ(table[uint32_t(i)], distinct[i]);
  }
}

// CTAs come in runs of equal counts: a run, another counts, and the first
// again keep their numbers.
TEST(UnitCountsTable, KeepsNumbersAcrossRunsOfEqualCounts) {
  UnitCountsTable table;
  UnitCounts a{}, b{};
  a[0] = 7;
  b[0] = 7;
  b[6] = 1;
  EXPECT_EQ(table.intern(a), 0u);
  EXPECT_EQ(table.intern(a), 0u);
  EXPECT_EQ(table.intern(b), 1u);
  EXPECT_EQ(table.intern(b), 1u);
  EXPECT_EQ(table.intern(a), 0u);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table[1], b);
}
