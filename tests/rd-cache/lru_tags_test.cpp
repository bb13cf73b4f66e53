#include "lru_tags.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <functional>

#include "libcommon/diag.hpp"

#include "lru_reference.hpp"

using namespace sasskit::rdcache;
using sasskit::rdcache::test::ExactLru;
using sasskit::rdcache::test::generated_stream;

TEST(LruTags, HitsAndWriteBacksMatchExactLruForEveryGeometry) {
  const auto stream = generated_stream(30000, 11);
  for (uint64_t sets : {1ull, 4ull, 6ull, 64ull}) {
    for (uint64_t ways : {1ull, 3ull, 8ull, 15ull, 16ull, 17ull, 200ull}) {
      const std::unique_ptr<CacheTags> tags = make_cache_tags("lru", sets, ways);
      ExactLru ref(sets, ways);
      uint64_t hits = 0, written_back = 0;
      for (size_t i = 0; i < stream.size(); ++i) {
        const bool write = i % 3 == 0;
        unsigned ref_wb = 0;
        const uint32_t ref_hits = ref.access(stream[i].line, stream[i].mask, write, &ref_wb);
        const TagOutcome out = tags->access(stream[i].line, stream[i].mask, write);
        ASSERT_EQ(out.hits, ref_hits) << sets << " sets, " << ways << " ways, access " << i;
        ASSERT_EQ(out.written_back, ref_wb) << sets << " sets, " << ways << " ways, access " << i;
        hits += std::popcount(out.hits);
        written_back += out.written_back;
      }
      EXPECT_GT(hits, 0u);
      if (sets * ways <= 1000) {  // small enough to evict
        EXPECT_GT(written_back, 0u) << sets << " sets, " << ways << " ways";
      }
    }
  }
}

namespace {
// Both LRU classes, whatever the ways, for the tests below.
using MakeTags = std::function<std::unique_ptr<CacheTags>(uint64_t sets, uint64_t ways)>;
const MakeTags kLruClasses[] = {
    [](uint64_t sets, uint64_t ways) { return std::make_unique<ScannedLru>(sets, ways); },
    [](uint64_t sets, uint64_t ways) { return std::make_unique<ListedLru>(sets, ways); },
};
}  // namespace

TEST(LruTags, AWrittenLineIsWrittenBackOnceWhenEvicted) {
  for (const MakeTags& make : kLruClasses) {
    const std::unique_ptr<CacheTags> tags = make(1, 2);
    EXPECT_EQ(tags->access(10, 0b0011, true).hits, 0u);   // allocates without reading
    EXPECT_EQ(tags->access(10, 0b0001, false).hits, 0b0001u);
    EXPECT_EQ(tags->access(11, 0b1111, false).written_back, 0u);
    EXPECT_EQ(tags->access(12, 0b0001, false).written_back, 2u);  // evicts line 10: 2 dirty sectors
    const TagOutcome again = tags->access(10, 0b0011, false);  // gone: read back, evicting clean line 11
    EXPECT_EQ(again.hits, 0u);
    EXPECT_EQ(again.written_back, 0u);
    EXPECT_EQ(tags->access(13, 0b0001, false).written_back, 0u);  // evicts line 12
    EXPECT_EQ(tags->access(14, 0b0001, false).written_back, 0u);  // evicts line 10, clean since written back
  }
}

TEST(LruTags, ReadLinesAreNeverWrittenBack) {
  for (const MakeTags& make : kLruClasses) {
    const std::unique_ptr<CacheTags> tags = make(4, 4);
    unsigned written_back = 0;
    for (uint64_t line = 0; line < 10000; ++line) written_back += tags->access(line, 0xF, false).written_back;
    EXPECT_EQ(written_back, 0u);
  }
}

TEST(CacheTags, PoliciesAreNamedByTheirTable) {
  EXPECT_EQ(replacement_policy_names(), "lru");
  EXPECT_NE(make_cache_tags(kDefaultReplacement, 4, 4), nullptr);
  EXPECT_THROW(make_cache_tags("fifo", 4, 4), sasskit::Error);
}
