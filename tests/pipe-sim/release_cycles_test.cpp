// The MSHRs' release cycles (ReleaseCycles, memory_pipeline.hpp) against a
// min-heap: the count and the earliest after every addition and release,
// whether the cycles come in a few sorted streams (as requests of a few
// latencies add them) or in any order (more streams than it keeps runs).
#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "memory_pipeline.hpp"

using namespace sasskit::pipesim;

namespace {

// `streams` latencies, each added in nondecreasing cycles as the clock
// moves on; every few cycles the due ones are released.
void expect_heap_order(unsigned streams, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint64_t> latency(streams);
  for (uint64_t& l : latency) l = 20 + rng() % 600;
  ReleaseCycles cycles;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> heap;
  uint64_t now = 0;
  for (int step = 0; step < 20000; ++step) {
    now += rng() % 3;
    for (unsigned k = rng() % 3; k > 0; --k) {
      uint64_t c = now + latency[rng() % streams] + rng() % 2;
      cycles.add(c);
      heap.push(c);
      ASSERT_EQ(cycles.size(), heap.size());
      ASSERT_EQ(cycles.earliest(), heap.top());
    }
    cycles.release_due(now);
    while (!heap.empty() && heap.top() <= now) heap.pop();
    ASSERT_EQ(cycles.size(), heap.size());
    ASSERT_EQ(cycles.earliest(), heap.empty() ? kNever : heap.top());
  }
}

}  // namespace

TEST(ReleaseCycles, ReleasesInHeapOrderFromAFewStreams) {
  for (unsigned streams : {1u, 2u, 4u}) expect_heap_order(streams, 7 + streams);
}

TEST(ReleaseCycles, ReleasesInHeapOrderFromMoreStreamsThanRuns) {
  expect_heap_order(40, 3);
}

TEST(ReleaseCycles, EmptyHasNoEarliest) {
  ReleaseCycles cycles;
  EXPECT_EQ(cycles.size(), 0u);
  EXPECT_EQ(cycles.earliest(), kNever);
  cycles.add(5);
  cycles.release_due(5);
  EXPECT_EQ(cycles.earliest(), kNever);
}
