// The stream layer's count checks (formats/count_checks.hpp), bounded
// quoting of inputs (libcommon/diag.hpp) and CSV records across lines.
#include <gtest/gtest.h>

#include <sstream>

#include "formats/count_checks.hpp"
#include "formats/csv.hpp"
#include "formats/profile.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

namespace sasskit {
namespace {

TEST(CtaIndexSet, RefusesAnIndexSeenBeforeInAnyOrder) {
  stream::CtaIndexSet set;
  for (uint64_t i : {5, 3, 4, 9, 0, 1, 2, 8, 7, 6}) EXPECT_TRUE(set.insert(i)) << i;
  for (uint64_t i = 0; i < 10; ++i) EXPECT_FALSE(set.insert(i)) << i;
  EXPECT_TRUE(set.insert(10));
  EXPECT_TRUE(set.insert(UINT64_MAX - 1));
  EXPECT_FALSE(set.insert(UINT64_MAX - 1));
  EXPECT_TRUE(set.insert(UINT64_MAX));
  EXPECT_FALSE(set.insert(UINT64_MAX));
}

TEST(WarpIdSet, SmallAndLargeNumbersAndClear) {
  stream::WarpIdSet set;
  EXPECT_TRUE(set.insert(0));
  EXPECT_TRUE(set.insert(63));
  EXPECT_TRUE(set.insert(64));
  EXPECT_TRUE(set.insert(UINT32_MAX));
  EXPECT_FALSE(set.insert(0));
  EXPECT_FALSE(set.insert(63));
  EXPECT_FALSE(set.insert(64));
  EXPECT_FALSE(set.insert(UINT32_MAX));
  set.clear();
  EXPECT_TRUE(set.insert(0));
  EXPECT_TRUE(set.insert(64));
}

TEST(QuotedInput, BoundedEscapedWithLength) {
  EXPECT_EQ(quoted_input("a\nb"), "'a\\nb'");
  const std::string longer(kQuotedBytes + 1, 'x');
  EXPECT_EQ(quoted_input(longer), "'" + std::string(kQuotedBytes, 'x') + "...' (201 bytes)");
  EXPECT_EQ(bounded_input(std::string(kQuotedBytes, 'y')), std::string(kQuotedBytes, 'y'));
  // A cut never splits a UTF-8 character: "é" is two bytes.
  const std::string accents = std::string(kQuotedBytes - 1, 'z') + "\xc3\xa9" + "tail";
  EXPECT_EQ(bounded_input(accents), std::string(kQuotedBytes - 1, 'z') + "... (205 bytes)");
}

TEST(Csv, QuoteOpenAfterLine) {
  EXPECT_FALSE(csv_quote_open_after("a,b,c", false));
  EXPECT_TRUE(csv_quote_open_after("1,\"two", false));
  EXPECT_FALSE(csv_quote_open_after("lines\",10", true));
  EXPECT_TRUE(csv_quote_open_after("a \"\" b", true));  // a doubled quote stays inside
  EXPECT_FALSE(csv_quote_open_after("x,ab\"c,y", false));  // a quote inside an unquoted field opens nothing
  EXPECT_FALSE(csv_quote_open_after("\"a\"junk,\"b\"", false));
}

TEST(Csv, ProfileRecordSpansLinesAndKeepsLineNumbers) {
  std::istringstream in("id,name,duration\n1,\"two\nlines\",10\n2,b,x\n");
  const std::string error = test::error_of([&] { profile::read_profile(in, "p.csv"); });
  EXPECT_EQ(error, "p.csv:4: duration 'x' is not a number");
  std::istringstream good("id,name,duration\n1,\"two\r\nlines\",10\n2,b,20\n");
  const profile::Profile p = profile::read_profile(good, "p.csv");
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].name, "two\r\nlines");
  EXPECT_EQ(p.kernels[1].line, 4u);
}

}  // namespace
}  // namespace sasskit
