#include "libcommon/spill.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace sasskit;

TEST(SpillFile, ReadsEachRecordBackWithItsTagInAnyOrder) {
  SpillFile spill;
  const std::vector<std::pair<std::string, int64_t>> records = {
      {"first", 7}, {"", -1}, {std::string(5000, 'x'), 0}, {std::string("a\0b", 3), INT64_MIN}};
  for (const auto& [bytes, tag] : records) spill.append(bytes, tag);
  spill.flush();
  ASSERT_EQ(spill.size(), records.size());
  std::string bytes;
  for (size_t i = records.size(); i-- > 0;) {
    EXPECT_EQ(spill.read(i, bytes), records[i].second) << i;
    EXPECT_EQ(bytes, records[i].first) << i;
  }
}

TEST(SpillFile, ReplayGivesTheRecordsInOrderThenEmptiesTheFile) {
  SpillFile spill;
  spill.append("one", 1);
  spill.append("two", 2);
  std::vector<std::pair<std::string, int64_t>> seen;
  spill.replay([&](const std::string& bytes, int64_t tag) { seen.emplace_back(bytes, tag); });
  EXPECT_EQ(seen, (std::vector<std::pair<std::string, int64_t>>{{"one", 1}, {"two", 2}}));
  EXPECT_EQ(spill.size(), 0u);
  // Reused after the replay: offsets start again at the beginning.
  spill.append("three", 3);
  spill.flush();
  std::string bytes;
  EXPECT_EQ(spill.read(0, bytes), 3);
  EXPECT_EQ(bytes, "three");
}

// Replay reads a buffer at a time: records larger than it, and records
// across its ends, come back whole.
TEST(SpillFile, ReplayGivesRecordsLargerThanItsBufferAndAcrossItsEnds) {
  SpillFile spill;
  std::vector<std::pair<std::string, int64_t>> records;
  for (int64_t i = 0; i < 600; ++i)
    records.emplace_back(std::string(i % 7 == 0 ? 3000 + 977 * i : 17 * i, static_cast<char>('a' + i % 26)), i);
  records.emplace_back(std::string(700000, 'z'), -5);  // more than a buffer
  records.emplace_back("", 9);
  for (const auto& [bytes, tag] : records) spill.append(bytes, tag);
  std::vector<std::pair<std::string, int64_t>> seen;
  spill.replay([&](const std::string& bytes, int64_t tag) { seen.emplace_back(bytes, tag); });
  EXPECT_EQ(seen, records);
}
