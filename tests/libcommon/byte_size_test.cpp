// One size parser for every tool: the GPU model's size keys and rd-cache's
// --sweep read the same suffixes.
#include "libcommon/byte_size.hpp"

#include <gtest/gtest.h>

using namespace sasskit;

TEST(ByteSize, BinarySuffixesInAnyCaseAfterOptionalSpaces) {
  EXPECT_EQ(parse_byte_size("128").bytes, 128u);
  EXPECT_EQ(parse_byte_size("5B").bytes, 5u);
  for (const char* text : {"32K", "32k", "32KB", "32KiB", "32 kib"}) {
    EXPECT_EQ(parse_byte_size(text).bytes, 32u << 10) << text;
    EXPECT_FALSE(parse_byte_size(text).error) << text;
  }
  EXPECT_EQ(parse_byte_size("4M").bytes, 4u << 20);
  EXPECT_EQ(parse_byte_size("6MiB").bytes, 6u << 20);
  EXPECT_EQ(parse_byte_size("1gb").bytes, 1ull << 30);
  EXPECT_EQ(parse_byte_size("0").bytes, 0u);  // a size of 0 is for the caller to refuse
}

TEST(ByteSize, AnythingElseIsNotASize) {
  for (const char* text : {"", "K", "4XB", "4 K B", "-1", "4.5M", "0x10"})
    EXPECT_EQ(parse_byte_size(text).error, ByteSizeError::NotASize) << text;
  EXPECT_EQ(parse_byte_size("17179869184GiB").error, ByteSizeError::TooLarge);  // 2^64 bytes
  EXPECT_EQ(parse_byte_size("18446744073709551616").error, ByteSizeError::NotASize);  // past uint64
}

TEST(ByteSize, WrittenAsDumpConfigWritesIt) {
  EXPECT_EQ(format_byte_size(6u << 20), "6MiB");
  EXPECT_EQ(format_byte_size(96u << 10), "96KiB");
  EXPECT_EQ(format_byte_size(100), "100");
  EXPECT_EQ(format_byte_size(0), "0");
}
