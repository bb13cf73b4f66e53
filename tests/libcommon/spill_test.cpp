#include "libcommon/spill.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcommon/diag.hpp"

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
  spill.replay([&](std::string_view bytes, int64_t tag) { seen.emplace_back(std::string(bytes), tag); });
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
  spill.replay([&](std::string_view bytes, int64_t tag) { seen.emplace_back(std::string(bytes), tag); });
  EXPECT_EQ(seen, records);
}

namespace {

// Sets TMPDIR for a scope, to a directory that does not exist by default:
// a spill that needs its file then fails, one kept in memory does not.
class TmpdirFor {
 public:
  explicit TmpdirFor(const char* dir = "/nonexistent/sasskit-spill-test") {
    if (const char* was = std::getenv("TMPDIR")) was_ = was;
    setenv("TMPDIR", dir, 1);
  }
  ~TmpdirFor() {
    if (was_)
      setenv("TMPDIR", was_->c_str(), 1);
    else
      unsetenv("TMPDIR");
  }

 private:
  std::optional<std::string> was_;
};

}  // namespace

TEST(SpillFile, KeepsSmallSpillsInMemoryAndTheRestOnFile) {
  TmpdirFor no_directory;
  SpillFile spill;
  spill.append(std::string(1000, 'a'), 1);
  spill.flush();  // no file was needed
  EXPECT_THROW(spill.append(std::string(kSpillMemoryBytes, 'b'), 2), Error);
}

TEST(SpillFile, ReadsAndReplaysRecordsInMemoryAndOnFile) {
  SpillFile spill;
  std::vector<std::pair<std::string, int64_t>> records;
  // 6.6 MB: past the memory's share. Records much smaller than replay's
  // buffer, so that a buffer holds records on both sides of the boundary.
  for (int64_t i = 0; i < 1200; ++i)
    records.emplace_back(std::string(1000 + i * 7919 % 9000, static_cast<char>('a' + i % 26)), i);
  for (const auto& [bytes, tag] : records) spill.append(bytes, tag);
  spill.flush();
  std::string bytes;
  for (size_t i = records.size(); i-- > 0;) {
    EXPECT_EQ(spill.read(i, bytes), records[i].second) << i;
    EXPECT_EQ(bytes, records[i].first) << i;
  }
  std::vector<std::pair<std::string, int64_t>> seen;
  spill.replay([&](std::string_view b, int64_t tag) { seen.emplace_back(std::string(b), tag); });
  EXPECT_EQ(seen, records);
  // Emptied, the spill keeps records in memory again.
  TmpdirFor no_directory;
  spill.append("again", 3);
  spill.flush();
  EXPECT_EQ(spill.read(0, bytes), 3);
  EXPECT_EQ(bytes, "again");
}

// A run of records read back in order, a buffer at a time: any sub-range,
// in memory, on file and across the boundary, with the bytes taken away by
// the reader; the spill keeps its records.
TEST(SpillFile, ReadsRunsOfRecordsInOrderAndKeepsThem) {
  SpillFile spill;
  std::vector<std::pair<std::string, int64_t>> records;
  for (int64_t i = 0; i < 1200; ++i)
    records.emplace_back(std::string(1000 + i * 7919 % 9000, static_cast<char>('a' + i % 26)), i);
  records.emplace_back(std::string(700000, 'z'), -5);  // more than a buffer
  for (const auto& [bytes, tag] : records) spill.append(bytes, tag);
  spill.flush();
  const std::vector<std::pair<size_t, size_t>> runs = {
      {0, 1}, {0, 300}, {250, 900}, {899, 900}, {700, records.size()}, {records.size() - 1, records.size()}, {5, 5}};
  for (const auto& [begin, end] : runs) {
    std::vector<std::pair<std::string, int64_t>> seen;
    spill.read_run(begin, end, [&](std::string_view b, int64_t tag) { seen.emplace_back(std::string(b), tag); });
    const std::vector<std::pair<std::string, int64_t>> expected(records.begin() + begin, records.begin() + end);
    EXPECT_EQ(seen, expected) << begin << ".." << end;
  }
  EXPECT_EQ(spill.size(), records.size());
}

// The memory's share is the process's: a second spill goes to its file while
// the first holds it all, and keeps its records in memory once it is freed.
TEST(SpillFile, SharesItsMemoryWithTheProcesssOtherSpills) {
  auto first = std::make_unique<SpillFile>();
  first->append(std::string(kSpillMemoryBytes - 64, 'x'), 0);
  TmpdirFor no_directory;
  SpillFile second;
  EXPECT_THROW(second.append(std::string(1000, 'y'), 0), Error);
  first.reset();
  SpillFile third;
  third.append(std::string(1000, 'z'), 0);
  third.flush();
}

// read_near gives what read gives, in any order, from records in memory and
// on file; the thread's buffer never serves another spill's records, nor
// those of this spill before it was emptied.
TEST(SpillFile, ReadsNearWhatItReadsInAnyOrderAndNeverAnotherSpillsRecords) {
  auto fill = [](SpillFile& spill, char base, int64_t count) {
    std::vector<std::string> records;
    for (int64_t i = 0; i < count; ++i)
      records.push_back(std::string(1000 + i * 7919 % 9000, static_cast<char>(base + i % 20)));
    for (size_t i = 0; i < records.size(); ++i) spill.append(records[i], int64_t(i));
    spill.flush();
    return records;
  };
  SpillFile first, second;
  const std::vector<std::string> a = fill(first, 'a', 1200);  // past the memory's share
  const std::vector<std::string> b = fill(second, 'A', 300);  // on file: the first holds the share
  std::string bytes;
  const std::vector<size_t> order = {0, 1, 1199, 700, 701, 702, 5, 1198, 640, 639, 1000};
  for (size_t i : order) {
    EXPECT_EQ(first.read_near(i, bytes), int64_t(i));
    EXPECT_EQ(bytes, a[i]) << i;
    const size_t j = i % b.size();
    EXPECT_EQ(second.read_near(j, bytes), int64_t(j));
    EXPECT_EQ(bytes, b[j]) << j;
  }
  EXPECT_EQ(first.read_near(1000, bytes), 1000);  // the buffer holds the first spill's records
  first.clear();
  const std::vector<std::string> again = fill(first, 'k', 1200);  // at the same offsets
  EXPECT_EQ(first.read_near(1001, bytes), 1001);
  EXPECT_EQ(bytes, again[1001]);
  for (size_t i : order) {
    EXPECT_EQ(first.read_near(i, bytes), int64_t(i));
    EXPECT_EQ(bytes, again[i]) << i;
  }
}
