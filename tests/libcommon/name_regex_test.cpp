#include "libcommon/name_regex.hpp"

#include <gtest/gtest.h>
#include <regex.h>

#include <chrono>
#include <string>
#include <vector>

#include "libcommon/diag.hpp"

using sasskit::NameRegex;

namespace {

// glibc's POSIX matcher, the reference for what an expression means.
bool glibc_search(const std::string& expression, const std::string& text) {
  regex_t re;
  if (::regcomp(&re, expression.c_str(), REG_EXTENDED | REG_NOSUB) != 0) ADD_FAILURE() << "glibc refuses " << expression;
  regmatch_t whole{0, static_cast<regoff_t>(text.size())};
  const bool found = ::regexec(&re, text.c_str(), 1, &whole, REG_STARTEND) == 0;
  ::regfree(&re);
  return found;
}

const std::vector<std::string> kTexts = {
    "", "a", "b", "ab", "ba", "aab", "abab", "gemm", "sgemm_128x64_nn", "_Z4gemmPKfS0_Pfi", "vecadd",
    "reduce_kernel", "x{2}", "a.b", "a-b", "A]b", "tab\there", "caf\xc3\xa9", "aaaaaaaaaaaaaaaaaaaab", "0123456789",
    "[x]", "a|b", "()", "^$"};

const std::vector<std::string> kExpressions = {
    "a", "^a", "a$", "^$", "^ab$", "a|b", "(a|b)*c", "(a+)+$", "(a*)*b", "a?b", "^a?b?$", "a{2}", "a{2,}",
    "^a{1,3}b", "a{0,1}b", "(ab){2}", "gemm", "^s?gemm", "gemm|vecadd", "^(gemm|vecadd)$", "[abc]", "[^a]",
    "[a-c]+$", "[]a]", "[^]a]", "[a-]", "[[:digit:]]{3}", "[[:alpha:]_][[:alnum:]_]*", "[[:space:]]", "\\.",
    "a\\.b", "x\\{2\\}", "\\[x\\]", "\\|", "\\(\\)", "\\^\\$", ".", "^.$", "a.b", "..", "()", "(|a)b", "a||b",
    "[[=a=]]b", "[[.-.]]", "\\w+$", "\\W", "\\s", "\\S+", "(((a)))", "((a|b)(c|d)?)*$", "a{,2}b", "x\\{"};

}  // namespace

TEST(NameRegex, AgreesWithGlibcOnEveryPair) {
  for (const std::string& e : kExpressions) {
    const NameRegex re(e);
    for (const std::string& t : kTexts) EXPECT_EQ(re.search(t), glibc_search(e, t)) << "regex " << e << " on '" << t << "'";
  }
}

TEST(NameRegex, SearchesNulBytesAsData) {
  const std::string text("a\0b", 3);
  EXPECT_TRUE(NameRegex("b$").search(text));
  EXPECT_TRUE(NameRegex("^a.b$").search(text));
  EXPECT_FALSE(NameRegex("^ab$").search(text));
}

TEST(NameRegex, TakesLinearTimeOnPathologicalPatterns) {
  // Backtracking matchers take exponential or quadratic time here.
  const std::string name(1 << 20, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(NameRegex("(a+)+$").search(name));
  EXPECT_FALSE(NameRegex("(a+)+b").search(name));
  EXPECT_FALSE(NameRegex("(a|aa)*c").search(name));
  EXPECT_FALSE(NameRegex("^(a*)*(a{1,9})*b").search(name));
  // A generous bound on a loaded machine; the exponential cases would not end.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(NameRegex, RefusesWhatItDoesNotSupportSayingWhat) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"(a", "unmatched ("},     {"a)", "unmatched )"},          {"[a", "unmatched ["},
      {"*a", "nothing to repeat"}, {"a{3,1}", "bad repetition count"}, {"a{256}", "above 255"},
      {"(a)\\1", "back-references"}, {"\\bword", "not supported"},    {"[[:bogus:]]", "unknown character class"},
      {"[z-a]", "invalid range"}, {"x{", "bad repetition count"}, {"x{a}", "bad repetition count"},
      {"{a", "nothing to repeat"}, {"^*a", "nothing to repeat"}, {"a\\", "trailing backslash"},     {"((a{255}){255}){2}", "too large"}};
  for (const auto& [expression, why] : bad) {
    try {
      NameRegex re(expression);
      ADD_FAILURE() << expression << " was accepted";
    } catch (const sasskit::Error& e) {
      EXPECT_EQ(e.code(), sasskit::ExitCode::Usage);
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << expression << ": " << e.what();
    }
  }
}
