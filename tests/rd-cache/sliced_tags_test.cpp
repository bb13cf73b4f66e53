#include "sliced_tags.hpp"

#include <gtest/gtest.h>

#include "lru_reference.hpp"

using namespace sasskit::rdcache;
using sasskit::rdcache::test::generated_stream;

// Cut into slices, the tags give every access the outcome one CacheTags of
// all the sets gives it: hits and write-backs, access by access.
TEST(SlicedTags, EverySliceCountGivesTheOutcomesOfOneTags) {
  const auto stream = generated_stream(30000, 5);
  for (uint64_t sets : {1ull, 6ull, 64ull, 3072ull}) {
    for (uint64_t ways : {1ull, 3ull, 16ull, 24ull}) {
      for (unsigned asked : {2u, 3u, 8u, 64u}) {
        SlicedTags sliced("lru", sets, ways, asked);
        const std::unique_ptr<CacheTags> ref = make_cache_tags("lru", sets, ways);
        uint64_t hits = 0, written_back = 0;
        for (size_t i = 0; i < stream.size(); ++i) {
          const bool write = i % 3 == 0;
          const TagOutcome want = ref->access(stream[i].line, stream[i].mask, write);
          const TagOutcome got = sliced.access(sliced.place(stream[i].line), stream[i].mask, write);
          ASSERT_EQ(got.hits, want.hits) << sets << "x" << ways << ", " << asked << " slices, access " << i;
          ASSERT_EQ(got.written_back, want.written_back) << sets << "x" << ways << ", access " << i;
          hits += got.hits != 0;
          written_back += got.written_back;
        }
        EXPECT_GT(hits, 0u);
        if (sets * ways <= 1000) {
          EXPECT_GT(written_back, 0u) << sets << "x" << ways;
        }
      }
    }
  }
}

TEST(SlicedTags, SlicesArePowersOfTwoAndNoMoreThanTheSets) {
  EXPECT_EQ(SlicedTags("lru", 3072, 16, 1).slices(), 1u);
  EXPECT_EQ(SlicedTags("lru", 3072, 16, 3).slices(), 2u);
  EXPECT_EQ(SlicedTags("lru", 3072, 16, 16).slices(), 16u);
  EXPECT_EQ(SlicedTags("lru", 6, 4, 16).slices(), 4u);
  EXPECT_EQ(SlicedTags("lru", 1, 4, 16).slices(), 1u);
}

// A set's lines all go to one slice, consecutive sets to different ones.
TEST(SlicedTags, ASetBelongsToOneSlice) {
  const SlicedTags sliced("lru", 6, 2, 4);
  for (uint64_t line = 0; line < 60; ++line) {
    EXPECT_EQ(sliced.place(line).slice, sliced.place(line + 6).slice) << line;
    EXPECT_EQ(sliced.place(line).slice, (line % 6) % 4) << line;
  }
}
