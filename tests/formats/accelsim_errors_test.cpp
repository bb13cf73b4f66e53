// Accel-Sim text: each kind of malformed input and its exact message.
#include <gtest/gtest.h>

#include "accelsim_test_support.hpp"

using namespace sasskit;
using namespace sasskit::test;

namespace {

// header(4) takes lines 1-16, so "#BEGIN_TB" is line 17, "warp = 0" 19,
// "insts = N" 20 and the first instruction line 21.
std::string block(const std::string& insts_line, const std::string& lines,
                  const std::string& end = "#END_TB\n") {
  return header(4) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" + insts_line + "\n" + lines +
         end;
}

std::string one_line(const std::string& line) { return block("insts = 1", line + "\n"); }

std::string without(std::string text, const std::string& line) {
  text.erase(text.find(line), line.size());
  return text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

const std::string kExit = "0000 ffffffff 0 EXIT 0 0\n";

}  // namespace

TEST(AccelsimErrors, MissingHeaderField) {
  EXPECT_EQ(read_error(without(one_line(kExit), "-nregs = 16\n")),
            "t.traceg:16: expected header line '-nregs = ...', found '#BEGIN_TB'");
  EXPECT_EQ(read_error("-kernel name = k\n"),
            "t.traceg:1: expected header line '-kernel id = ...', found end of file");
}

TEST(AccelsimErrors, BadHeaderField) {
  EXPECT_EQ(read_error(replaced(one_line(kExit), "(2,1,1)", "(2,1)")),
            "t.traceg:3: expected (X,Y,Z) for '-grid dim', found '(2,1)'");
  EXPECT_EQ(read_error(replaced(one_line(kExit), "-nregs = 16", "-nregs = many")),
            "t.traceg:6: expected a decimal number for '-nregs', found 'many'");
  EXPECT_EQ(read_error(replaced(one_line(kExit), "-nregs = 16", "-nregz = 16")),
            "t.traceg:6: expected a known header field (such as '-kernel name', '-grid dim'), "
            "found '-nregz = 16'");
  EXPECT_EQ(read_error(replaced(one_line(kExit), "= 0x00007f2b5a000000", "= 0x7f2b5z")),
            "t.traceg:9: expected a hexadecimal address for '-shmem base_addr', found '0x7f2b5z'");
}

TEST(AccelsimErrors, UnknownTracerVersion) {
  EXPECT_EQ(read_error(replaced(one_line(kExit), "tracer version = 4", "tracer version = 7")),
            "t.traceg:12: expected accelsim tracer version 3, 4 or 5, found '7'");
}

TEST(AccelsimErrors, TruncatedMidLine) {
  EXPECT_EQ(read_error(block("insts = 2", kExit + "0010 ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x7f", "")),
            "t.traceg:22: expected a complete instruction line, found end of file in the middle "
            "of the line");
}

TEST(AccelsimErrors, TruncatedMidWarpAndMidBlock) {
  EXPECT_EQ(read_error(block("insts = 3", kExit + kExit, "")),
            "t.traceg:22: expected 3 instruction lines in warp 0 of thread block 0,0,0 "
            "('insts = 3' at line 20), found 2 before end of file");
  EXPECT_EQ(read_error(block("insts = 1", kExit, "")),
            "t.traceg:21: expected 'warp = N' or '#END_TB' to finish thread block 0,0,0, found "
            "end of file");
}

TEST(AccelsimErrors, InstsCountNotMatchingTheLines) {
  EXPECT_EQ(read_error(block("insts = 1", kExit + kExit)),
            "t.traceg:22: expected 1 instruction lines in warp 0 of thread block 0,0,0 "
            "('insts = 1' at line 20), found more");
  EXPECT_EQ(read_error(block("insts = 3", kExit + kExit + "warp = 1\ninsts = 0\n")),
            "t.traceg:23: expected 3 instruction lines in warp 0 of thread block 0,0,0 "
            "('insts = 3' at line 20), found 2");
  EXPECT_EQ(read_error(block("insts = three", kExit)),
            "t.traceg:20: expected 'insts = N', found 'insts = three'");
}

TEST(AccelsimErrors, BadHex) {
  EXPECT_EQ(read_error(one_line("00g0 ffffffff 0 EXIT 0 0")),
            "t.traceg:21: expected a hexadecimal PC, found '00g0'");
  EXPECT_EQ(read_error(one_line("0000 1ffffffff 0 EXIT 0 0")),
            "t.traceg:21: expected a hexadecimal active mask of at most 32 bits, found "
            "'1ffffffff'");
  EXPECT_EQ(read_error(one_line("0000 00000003 0 ST.E 2 R2 R4 4 0 0x10 0xq0")),
            "t.traceg:21: expected a hexadecimal address for each of the 2 active lanes "
            "(address 2), found '0xq0'");
}

TEST(AccelsimErrors, Mode2DeltaCountWrong) {
  EXPECT_EQ(read_error(one_line("0000 0000000f 0 ST.E 2 R2 R4 4 2 0x1000 4 4 4 4")),
            "t.traceg:21: expected 3 deltas (active lanes - 1, mask 0000000f), found 4");
  EXPECT_EQ(read_error(one_line("0000 0000000f 0 ST.E 2 R2 R4 4 2 0x1000 4 4")),
            "t.traceg:21: expected 3 deltas (active lanes - 1, mask 0000000f), found 2");
}

TEST(AccelsimErrors, UnknownAddressMode) {
  EXPECT_EQ(read_error(one_line("0000 0000000f 0 ST.E 2 R2 R4 4 3 0x1000 4")),
            "t.traceg:21: expected address mode 0, 1 or 2, found '3'");
}

TEST(AccelsimErrors, OtherMalformedLines) {
  EXPECT_EQ(read_error(one_line("0000 00000005 0 ST.E 2 R2 R4 4 1 0x1000 4")),
            "t.traceg:21: expected contiguous active lanes for address mode 1 (base+stride), "
            "found mask 00000005");
  EXPECT_EQ(read_error(one_line("0000 ffffffff 1 P0 ISETP 0 0")),
            "t.traceg:21: expected register R<n> (1 of 1), found 'P0'");
  EXPECT_EQ(read_error(one_line("0000 ffffffff 0 EXIT 0 0 7")),
            "t.traceg:21: expected end of line, found '7'");
  EXPECT_EQ(read_error(one_line("0000 ffffffff 0 EXIT 0")),
            "t.traceg:21: expected a memory width in bytes, found end of line");
  EXPECT_EQ(read_error(replaced(one_line(kExit), "version = 4", "version = 5")),
            "t.traceg:21: expected an immediate (tracer version 5), found end of line");
  // Before the first block a '#' line is a header comment.
  EXPECT_EQ(read_error(replaced(one_line(kExit), "#BEGIN_TB", "#BEGIN")),
            "t.traceg:18: expected '#BEGIN_TB', found 'thread block = 0,0,0'");
  EXPECT_EQ(read_error(one_line(kExit) + "#BEGIN\n"),
            "t.traceg:24: expected '#BEGIN_TB', found '#BEGIN'");
}

TEST(AccelsimErrors, RawLineOutsideTheGrid) {
  std::string raw = header(3, false, "#traces format = raw") + "2 0 0 0 " + kExit;
  EXPECT_EQ(read_error(raw), "t.traceg:16: expected a thread block inside the grid 2,1,1, found 2,0,0");
}

TEST(AccelsimErrors, BadKernelListLine) {
  std::istringstream in("kernel-1.traceg\nMemcpyHtoD,0x10\n");
  try {
    accelsim::read_kernel_list(in, "kernelslist.g");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where() + ": " + e.what(),
              "kernelslist.g:2: expected 'MemcpyHtoD,0xADDRESS,BYTES', found 'MemcpyHtoD,0x10'");
  }
}
