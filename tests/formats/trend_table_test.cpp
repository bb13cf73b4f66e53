#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "formats/archive_cta.hpp"

using sasskit::archive::TrendTable;

namespace {

constexpr unsigned kBits = 6;  // 64 slots
constexpr uint64_t kMissing = 0x5eed;

}  // namespace

TEST(TrendTable, PredictsLastPlusStepOfASeenKey) {
  TrendTable t(kBits);
  EXPECT_EQ(t.predict(7, kMissing), kMissing);
  t.update(7, 100);
  EXPECT_EQ(t.predict(7, kMissing), 100u);
  t.update(7, 130);
  EXPECT_EQ(t.predict(7, kMissing), 160u);
  // A fresh slot holds key ~0 with last = step = 0 (its bytes are all zero).
  EXPECT_EQ(t.predict(~uint64_t(0), kMissing), 0u);
}

// Every table of a size starts as a fresh one, whether its pages are new or
// a finished table's (which must have cleared each slot it wrote).
TEST(TrendTable, AFinishedTablesSlotsAreClearForTheNextOne) {
  std::vector<uint64_t> keys;
  for (uint64_t k = 1; k <= 40; ++k) keys.push_back(k * 0x9e3779b97f4a7c15ull);
  keys.push_back(~uint64_t(0));
  for (int round = 0; round < 3; ++round) {
    std::optional<TrendTable> t;
    t.emplace(kBits);
    for (uint64_t k : keys) EXPECT_EQ(t->predict(k, kMissing), k == ~uint64_t(0) ? 0u : kMissing) << round;
    for (uint64_t k : keys) {
      t->update(k, k ^ 0xabc);
      t->update(k, (k ^ 0xabc) + 8);
    }
    t.reset();
  }
}

// Written slots past the slot count (key ~0 rewritten with zeros leaves its
// slot all zero, so each write counts again): the whole table is cleared.
TEST(TrendTable, ATableWrittenMoreThanItsSlotsIsClearedWhole) {
  for (int round = 0; round < 2; ++round) {
    std::optional<TrendTable> t;
    t.emplace(kBits);
    for (uint64_t k = 1; k <= 64; ++k) EXPECT_EQ(t->predict(k, kMissing), kMissing) << round << " " << k;
    for (int i = 0; i < 200; ++i) t->update(~uint64_t(0), 0);
    for (uint64_t k = 1; k <= 64; ++k) t->update(k, k * 3);
    t.reset();
  }
}
