#include "reuse_distance.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "lru_reference.hpp"

using namespace sasskit::rdcache;
using sasskit::rdcache::test::Access;
using sasskit::rdcache::test::ExactLru;
using sasskit::rdcache::test::generated_stream;

namespace {

// Hit counts of `stack` (for every way count up to `max_ways`) against
// separate exact LRU simulations.
void expect_matches_exact_lru(StackEngine& stack, uint64_t sets, uint64_t max_ways,
                              const std::vector<Access>& stream) {
  std::vector<uint64_t> ways;
  for (uint64_t w : {1, 2, 3, 4, 8, 16, 64, 200})
    if (w <= max_ways) ways.push_back(w);
  std::vector<ExactLru> refs;
  for (uint64_t w : ways) refs.emplace_back(sets, w);
  std::vector<uint64_t> stack_hits(ways.size(), 0), ref_hits(ways.size(), 0);
  uint32_t d[kMaxSectorsPerLine];
  for (const Access& a : stream) {
    const unsigned n = stack.access(a.line, a.mask, d);
    ASSERT_EQ(n, static_cast<unsigned>(std::popcount(a.mask)));
    for (size_t i = 0; i < ways.size(); ++i) {
      for (unsigned s = 0; s < n; ++s) stack_hits[i] += d[s] < ways[i];
      ref_hits[i] += std::popcount(refs[i].access(a.line, a.mask));
    }
  }
  for (size_t i = 0; i < ways.size(); ++i)
    EXPECT_EQ(stack_hits[i], ref_hits[i]) << sets << " sets, " << ways[i] << " ways";
  EXPECT_GT(ref_hits.back(), 0u);
}

}  // namespace

TEST(ReuseDistance, FenwickStackMatchesExactLruForEveryAssociativity) {
  const auto stream = generated_stream(30000, 7);
  for (uint64_t sets : {1ull, 4ull, 6ull, 64ull}) {
    auto stack = make_fenwick_stack(sets, 4);
    expect_matches_exact_lru(*stack, sets, 200, stream);
  }
}

TEST(ReuseDistance, BoundedStackMatchesExactLruUpToItsDepth) {
  const auto stream = generated_stream(30000, 9);
  for (uint64_t sets : {1ull, 6ull, 64ull}) {
    for (unsigned depth : {4u, 16u, 64u}) {
      auto stack = make_bounded_stack(sets, 4, depth);
      expect_matches_exact_lru(*stack, sets, depth, stream);
    }
  }
}

TEST(ReuseDistance, DistancesCountDistinctLinesSinceLastUse) {
  auto stack = make_fenwick_stack(1, 1);
  uint32_t d[kMaxSectorsPerLine];
  auto distance = [&](uint64_t line) {
    stack->access(line, 1, d);
    return d[0];
  };
  EXPECT_EQ(distance(10), kCold);
  EXPECT_EQ(distance(11), kCold);
  EXPECT_EQ(distance(12), kCold);
  EXPECT_EQ(distance(12), 0u);
  EXPECT_EQ(distance(11), 1u);  // 12
  EXPECT_EQ(distance(10), 2u);  // 12, 11 (12 twice counts once)
  EXPECT_EQ(distance(10), 0u);
}

TEST(ReuseDistance, SectorNeverTouchedIsColdEvenWhenItsLineIsHot) {
  for (auto& stack : {make_fenwick_stack(1, 4), make_bounded_stack(1, 4, 4)}) {
    uint32_t d[kMaxSectorsPerLine];
    stack->access(5, 0b0001, d);
    ASSERT_EQ(stack->access(5, 0b0011, d), 2u);
    EXPECT_EQ(d[0], 0u);
    EXPECT_EQ(d[1], kCold);
  }
}

TEST(ReuseDistance, DistancesStayExactAcrossTimelineRenumbering) {
  auto stack = make_fenwick_stack(1, 4);
  uint32_t d[kMaxSectorsPerLine];
  for (int round = 0; round < 100000; ++round) {
    stack->access(round % 37, 1, d);
    if (round >= 37) {
      ASSERT_EQ(d[0], 36u) << round;
    }
  }
}

TEST(ReuseDistance, BoundedStackForgetsLinesBelowItsDepth) {
  auto stack = make_bounded_stack(1, 1, 2);
  uint32_t d[kMaxSectorsPerLine];
  for (uint64_t line : {1, 2, 3}) stack->access(line, 1, d);
  stack->access(2, 1, d);
  EXPECT_EQ(d[0], 1u);
  stack->access(1, 1, d);
  EXPECT_EQ(d[0], kCold);
}

TEST(ReuseDistance, HistogramCountsHitsBelowTheWays) {
  DistanceHistogram h;
  for (uint32_t d : {0u, 0u, 1u, 5u, kCold}) h.add(d);
  EXPECT_EQ(h.accesses(), 5u);
  EXPECT_EQ(h.hits(1), 2u);
  EXPECT_EQ(h.hits(2), 3u);
  EXPECT_EQ(h.hits(6), 4u);
  EXPECT_EQ(h.hits(1000), 4u);
  DistanceHistogram g;
  g.add(3);
  h.merge(g);
  EXPECT_EQ(h.hits(4), 4u);
  EXPECT_EQ(h.accesses(), 6u);
}
