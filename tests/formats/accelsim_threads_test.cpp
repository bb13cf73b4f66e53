// A kernel trace's text parsed in pieces on several threads gives what one
// thread gives: the same records in the same order (the instruction table in
// order of first appearance in the file), and on bad input the same message
// after the same records. Pieces of a few bytes cut the text before every
// '#BEGIN_TB' line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "accelsim_test_support.hpp"

namespace sasskit::test {
namespace {

std::string hex(unsigned value, int width) {
  std::string text;
  accelsim::detail::append_hex(text, value, width);
  return text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// One warp: loads and adds whose PCs move from block to block, so that a
// piece meets the table's entries in another order than the file does.
std::string warp(unsigned block, unsigned id, unsigned pairs) {
  std::string lines;
  for (unsigned k = 0; k < pairs; ++k) {
    const unsigned pc = ((block * 3 + id + k) % 11) * 16;
    lines += hex(pc, 4) + " ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x" + hex(0x7f0000 + block * 256 + k * 32, 12) + " 4\n";
    lines += hex(pc + 0x200, 4) + " 0000ffff 1 R5 IADD3 2 R4 R5 0\n";
  }
  lines += "0400 ffffffff 0 EXIT 0 0\n";
  return "warp = " + std::to_string(id) + "\ninsts = " + std::to_string(2 * pairs + 1) + "\n" + lines;
}

// `blocks` thread blocks of two warps; block `long_block` has `long_pairs`
// pairs of lines per warp, the others three.
std::string trace(unsigned blocks, unsigned long_block = ~0u, unsigned long_pairs = 0) {
  std::string text = replaced(header(4), "(2,1,1)", "(" + std::to_string(blocks) + ",1,1)");
  for (unsigned b = 0; b < blocks; ++b) {
    const unsigned pairs = b == long_block ? long_pairs : 3;
    text += "#BEGIN_TB\n\nthread block = " + std::to_string(b) + ",0,0\n\n" + warp(b, 0, pairs) + warp(b, 1, pairs) +
            "#END_TB\n\n";
  }
  return text;
}

// The text from the thread block `block`'s '#BEGIN_TB' on.
size_t block_start(const std::string& text, unsigned block) {
  return text.find("#BEGIN_TB\n\nthread block = " + std::to_string(block) + ",");
}

const std::vector<size_t> kPieceSizes = {1, 64, 700, 5000, size_t(1) << 20};

void expect_same_as_one_thread(const std::string& text, const std::string& what) {
  const Reading one = read_all(text);
  for (unsigned threads : {2u, 3u})
    for (size_t piece : kPieceSizes) {
      const Reading many = read_all(text, threads, piece);
      EXPECT_EQ(many.error, one.error) << what << ", " << threads << " threads, pieces of " << piece;
      EXPECT_EQ(many.order, one.order) << what << ", " << threads << " threads, pieces of " << piece;
      EXPECT_TRUE(many.records == one.records) << what << ", " << threads << " threads, pieces of " << piece;
    }
}

TEST(AccelsimThreads, GoodTraceReadsAlike) {
  const std::string text = trace(40);
  const Reading one = read_all(text);
  ASSERT_EQ(one.error, "");
  ASSERT_EQ(one.records.ctas.size(), 40u);
  ASSERT_GT(one.records.tables.size(), 1u);  // entries arrive with later blocks too
  expect_same_as_one_thread(text, "good trace");
}

TEST(AccelsimThreads, LayoutVariantsReadAlike) {
  const std::string text = trace(12);
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_same_as_one_thread(crlf, "CRLF line ends");
  std::string spaced = text;
  for (size_t at = spaced.find("#END_TB\n"); at != std::string::npos; at = spaced.find("#END_TB\n", at + 20))
    spaced.insert(at + 8, "\n  \n\t\n");
  expect_same_as_one_thread(spaced, "blank lines between blocks");
  expect_same_as_one_thread(text.substr(0, text.size() - 2), "no newline at the end");
  // A block larger than the text held before one thread reads on alone.
  expect_same_as_one_thread(trace(12, 5, 400), "one long block");
  // The first line after the header blank but for spaces: refused there.
  const std::string first_blank = replaced(text, "#BEGIN_TB", "  \n#BEGIN_TB");
  ASSERT_NE(read_all(first_blank).error, "");
  expect_same_as_one_thread(first_blank, "spaces after the header");
}

TEST(AccelsimThreads, FaultsReadAlike) {
  const std::string text = trace(30);
  struct Fault {
    std::string what, from, to;
  };
  const std::vector<Fault> faults = {
      {"a bad instruction line", "IADD3 2 R4 R5 0\n0400", "IADD3 2 R4 R5 nine\n0400"},
      {"'#BEGIN_TB' inside a warp", "insts = 7\n", "insts = 7\n#BEGIN_TB\n"},
      {"'#BEGIN_TB' after a warp's lines", "EXIT 0 0\nwarp = 1", "EXIT 0 0\n#BEGIN_TB\nwarp = 1"},
      {"no '#END_TB'", "#END_TB\n\n#BEGIN_TB", "\n#BEGIN_TB"},
      {"a repeated warp", "warp = 1\n", "warp = 0\n"},
      {"a block outside the grid", ",0,0\n\nwarp", "9,0,0\n\nwarp"},
      {"a line too long", "IADD3 2 R4 R5 0\n", "IADD3 2 R4 R5 0" + std::string((size_t(1) << 20) + 5, ' ') + "\n"},
      {"text between blocks", "#BEGIN_TB", "junk\n#BEGIN_TB"},
  };
  for (unsigned block : {0u, 1u, 13u, 28u})
    for (const Fault& f : faults) {
      std::string bad = text;
      const size_t at = bad.find(f.from, block_start(bad, block));
      ASSERT_NE(at, std::string::npos) << f.what;
      bad.replace(at, f.from.size(), f.to);
      const std::string what = f.what + " in block " + std::to_string(block);
      ASSERT_NE(read_all(bad).error, "") << what;
      expect_same_as_one_thread(bad, what);
    }
}

TEST(AccelsimThreads, RepeatedBlocksReadAlike) {
  const std::string text = trace(30);
  // Refused at the repeat, also when the repeated block is faulty further on.
  const std::string twice = replaced(text, "thread block = 17,", "thread block = 3,");
  EXPECT_NE(read_all(twice).error.find(": thread block 3,0,0 appears twice in the trace"), std::string::npos)
      << read_all(twice).error;
  expect_same_as_one_thread(twice, "a repeated block");
  std::string faulty = twice;
  const size_t repeat = faulty.find("thread block = 3,", faulty.find("thread block = 3,") + 1);
  faulty.replace(faulty.find("EXIT 0 0", repeat), 8, "EXIT 0 zero");
  EXPECT_EQ(read_all(faulty).error, read_all(twice).error);
  expect_same_as_one_thread(faulty, "a repeated block with a bad line");
}

TEST(AccelsimThreads, CutAnywhereReadsAlike) {
  const std::string text = trace(16);
  for (size_t size = 0; size < text.size(); size += 37)
    expect_same_as_one_thread(text.substr(0, size), "cut at " + std::to_string(size));
}

}  // namespace
}  // namespace sasskit::test
