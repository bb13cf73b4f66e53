// Accel-Sim text: the one-pass number reading of Fields agrees with
// parse_dec and parse_hex, and the reader's shortcuts for repeated text (a
// known body, a known line after a known instruction) give what reading
// each line on its own gives.
#include <gtest/gtest.h>

#include <random>

#include "accelsim_test_support.hpp"
#include "formats/accelsim_text.hpp"

using namespace sasskit;
using namespace sasskit::test;
using namespace sasskit::accelsim::detail;

namespace {

const std::vector<std::string> kTokens = {
    "", "0", "00", "7", "-", "-0", "-7", "+7", "R", "R7", "R-7", "RR7", "r7", "0x", "0X", "0x1", "0X1f",
    "0xg", "0x0x1", "x1", "1x", "ff", "FF", "fG", "65535", "65536", "R65535", "R65536",
    "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "99999999999999999999", "0000000000000000000000000001",
    "-0000000000000000000000000001", "ffffffffffffffff", "1ffffffffffffffff",
    "0x0000000000000000f", "000000000000000f", "0000000000000000f", "1\r", "1\v", "\r", "1e3",
    "12a", "a12"};

// A field of random characters that numbers are made of, and a few others.
std::string random_token(std::mt19937& rng) {
  static const std::string kChars = "0123456789000111999-+xXabcdefABCDEFgR\r";
  std::string t;
  for (size_t n = rng() % 24; n > 0; --n) t += kChars[rng() % kChars.size()];
  return t;
}

std::vector<std::string> tokens_to_try() {
  std::vector<std::string> tokens = kTokens;
  std::mt19937 rng(19);
  for (int i = 0; i < 20000; ++i) tokens.push_back(random_token(rng));
  return tokens;
}

// next_dec must read what next() then parse_dec read, leave the same rest,
// and set the value only where parse_dec accepts the field.
template <class T>
void expect_next_dec_as_parse_dec(const std::string& token, char prefix) {
  const std::string line = " \t" + token + "  next";
  Fields one_pass(line), reference(line);
  T value{}, expected_value{};
  std::string_view field;
  const bool ok = one_pass.next_dec(value, field, prefix);
  const std::string_view expected_field = reference.next();
  bool expected_ok = false;
  if (prefix == 0)
    expected_ok = parse_dec(expected_field, expected_value);
  else
    expected_ok = expected_field.size() > 1 && expected_field[0] == prefix &&
                  parse_dec(expected_field.substr(1), expected_value);
  ASSERT_EQ(ok, expected_ok) << "'" << token << "'";
  if (ok) {
    EXPECT_EQ(value, expected_value) << "'" << token << "'";
  }
  EXPECT_EQ(field, expected_field) << "'" << token << "'";
  EXPECT_EQ(one_pass.next(), reference.next()) << "'" << token << "'";
}

TEST(AccelsimParse, NextDecReadsWhatParseDecReads) {
  for (const std::string& token : tokens_to_try()) {
    expect_next_dec_as_parse_dec<uint16_t>(token, 'R');
    expect_next_dec_as_parse_dec<uint32_t>(token, 0);
    expect_next_dec_as_parse_dec<uint64_t>(token, 0);
    expect_next_dec_as_parse_dec<int64_t>(token, 0);
  }
}

TEST(AccelsimParse, NextHexReadsWhatParseHexReads) {
  for (const std::string& token : tokens_to_try()) {
    const std::string line = token + "\tnext";
    Fields one_pass(line), reference(line);
    uint64_t value = 0, expected_value = 0;
    std::string_view field;
    const bool ok = one_pass.next_hex(value, field);
    const std::string_view expected_field = reference.next();
    ASSERT_EQ(ok, parse_hex(expected_field, expected_value)) << "'" << token << "'";
    if (ok) {
      EXPECT_EQ(value, expected_value) << "'" << token << "'";
    }
    EXPECT_EQ(field, expected_field) << "'" << token << "'";
    EXPECT_EQ(one_pass.next(), reference.next()) << "'" << token << "'";
  }
}

// Instruction lines that repeat bodies and whole lines, with the spacing,
// masks, line numbers and immediates changing now and then.
std::vector<std::string> varied_lines(bool lineinfo, bool immediate, int count) {
  const std::vector<std::string> bodies = {
      "1 R1 MOV 0 0", "1  R1 MOV 0 0", "1 R1\tMOV 0 0", "0 EXIT 0 0", "1 R4 LDG.E.SYS 1 R2 4",
      "1 R4 LDG.E.SYS 1 R2 8", "0 STG.E.SYS 2 R2 R4 4", "2 R10 R11 HMMA.884 3 R12 R14 R255 0"};
  const std::vector<std::string> masks = {"ffffffff", "ffffffff", "0000ffff", "00000000", "f000000f"};
  std::mt19937 rng(35);
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    const unsigned pc = rng() % 6;
    const std::string& body = bodies[(pc + (rng() % 4 == 0 ? 1 : 0)) % bodies.size()];
    const std::string mask = masks[rng() % masks.size()];
    std::string line = lineinfo ? std::to_string(rng() % 3) + " " : "";
    line += "00" + std::to_string(pc) + "0 " + mask + " " + body;
    if (body.back() != '0') {  // a memory access: one address per lane of the mask
      const unsigned lanes = mask == "ffffffff" ? 32 : mask == "0000ffff" ? 16 : mask == "f000000f" ? 8 : 0;
      if (rng() % 2 == 0) {  // deltas that repeat, now and then spaced otherwise, or random ones
        const bool pattern = rng() % 3 != 0;
        line += " 2 0x7f000000" + std::to_string(1000 + rng() % 4);
        for (unsigned l = 1; l < lanes; ++l)
          line += (rng() % 50 == 0 ? "  " : " ") +
                  (pattern ? std::string(l % 4 == 0 ? "-1408" : "128") : std::to_string(int(rng() % 64) - 32));
      } else {
        line += " 0";
        for (unsigned l = 0; l < lanes; ++l) line += " 0x" + std::to_string(1000 + rng() % 9000);
      }
    }
    if (immediate) line += rng() % 5 == 0 ? " -5" : " 0";
    lines.push_back(line + (rng() % 3 == 0 ? " " : ""));
  }
  return lines;
}

std::string trace_of(int version, bool lineinfo, const std::vector<std::string>& lines,
                     size_t per_warp) {
  std::string text = header(version, lineinfo, version >= 5 ? "#traces format = ... immediate" : "");
  text += "#BEGIN_TB\nthread block = 0,0,0\n";
  for (size_t first = 0, warp = 0; first < lines.size(); first += per_warp, ++warp) {
    const size_t n = std::min(per_warp, lines.size() - first);
    text += "warp = " + std::to_string(warp) + "\ninsts = " + std::to_string(n) + "\n";
    for (size_t i = first; i < first + n; ++i) text += lines[i] + "\n";
  }
  return text + "#END_TB\n";
}

void expect_lines_read_as_on_their_own(int version, bool lineinfo,
                                       const std::vector<std::string>& lines, size_t per_warp) {
  Records all = read_records(trace_of(version, lineinfo, lines, per_warp));
  std::vector<StaticInst> table;
  for (const InstTable& slice : all.tables) table.insert(table.end(), slice.insts.begin(), slice.insts.end());
  const std::vector<WarpTrace>& warps = all.ctas.at(0).warps;
  for (size_t i = 0; i < lines.size(); ++i) {
    Records alone = read_records(trace_of(version, lineinfo, {lines[i]}, 1));
    const WarpTrace& expected = alone.ctas.at(0).warps.at(0);
    const WarpTrace& w = warps.at(i / per_warp);
    const size_t k = i % per_warp;
    EXPECT_EQ(table.at(w.inst.at(k)), alone.tables.at(0).insts.at(0)) << lines[i];
    EXPECT_EQ(w.mask.at(k), expected.mask.at(0)) << lines[i];
  }
  // Addresses: the warp's, in order, are those of its lines one by one.
  for (size_t first = 0, warp = 0; first < lines.size(); first += per_warp, ++warp) {
    std::vector<uint64_t> addrs;
    std::vector<uint8_t> modes;
    for (size_t i = first; i < std::min(first + per_warp, lines.size()); ++i) {
      const Records alone = read_records(trace_of(version, lineinfo, {lines[i]}, 1));
      const WarpTrace& one = alone.ctas.at(0).warps.at(0);
      addrs.insert(addrs.end(), one.addrs.begin(), one.addrs.end());
      modes.insert(modes.end(), one.addr_mode.begin(), one.addr_mode.end());
    }
    EXPECT_EQ(warps.at(warp).addrs, addrs);
    EXPECT_EQ(warps.at(warp).addr_mode, modes);
  }
}

TEST(AccelsimParse, RepeatedBodiesAndLinesReadAsEachLineOnItsOwn) {
  for (int version : {4, 5})
    for (bool lineinfo : {false, true})
      expect_lines_read_as_on_their_own(version, lineinfo,
                                        varied_lines(lineinfo, version >= 5, 600), 40);
}

TEST(AccelsimParse, RepeatedDeltasReadAsEachLineOnItsOwn) {
  const std::string ld = "0010 0000000f 1 R4 LDG.E.SYS 1 R2 4 2 ";
  expect_lines_read_as_on_their_own(
      4, false,
      {ld + "0x1000 4 4 -8", ld + "0x2000 4 4 -8", ld + "0x2000 4 4 -8", ld + "0x3000 4 4 -8 ",
       ld + "0x4000 4  4 -8", ld + "0x5000 4 4 -9", ld + "0x6000 4 4 -9",
       "0010 00000007 1 R4 LDG.E.SYS 1 R2 4 2 0x7000 4 4", ld + "0x8000 4 4 -9"},
      9);
}

TEST(AccelsimParse, AKnownBodyWithAnotherImmediateIsAnotherInstruction) {
  Records r = read_records(trace_of(5, false, {"0000 ffffffff 1 R1 MOV 0 0 7", "0000 ffffffff 1 R1 MOV 0 0 8",
                                               "0000 ffffffff 1 R1 MOV 0 0 7"}, 3));
  ASSERT_EQ(r.tables.at(0).insts.size(), 2u);
  EXPECT_EQ(r.tables.at(0).insts[1].imm, "8");
  EXPECT_EQ(r.ctas.at(0).warps.at(0).inst, (std::vector<uint32_t>{0, 1, 0}));
}

// header(4) takes lines 1-16; with trace_of's block the first instruction
// line is 21.
TEST(AccelsimParse, RepeatedTextStillRefusesWhatFollowsIt) {
  const std::string known = "0000 ffffffff 1 R1 MOV 0 0";
  const std::string exit = "0010 ffffffff 0 EXIT 0 0";
  EXPECT_EQ(read_error(trace_of(4, false, {known, exit, known, exit + " 7"}, 4)),
            "t.traceg:24: expected end of line, found '7'");
  EXPECT_EQ(read_error(trace_of(4, false, {known, known + "x"}, 2)),
            "t.traceg:22: expected a memory width in bytes, found '0x'");
  EXPECT_EQ(read_error(trace_of(4, false, {known, "0000 ffffffff 1 R1 MOV 0 0 0"}, 2)),
            "t.traceg:22: expected end of line, found '0'");
  const std::string ld = "0010 0000000f 1 R4 LDG.E.SYS 1 R2 4 2 0x1000 ";
  EXPECT_EQ(read_error(trace_of(4, false, {ld + "4 4 -8", ld + "4 4 -8", ld + "4 4 -8 7"}, 3)),
            "t.traceg:23: expected 3 deltas (active lanes - 1, mask 0000000f), found 4");
  EXPECT_EQ(read_error(trace_of(4, false, {ld + "4 4 -8", ld + "4 4 -8",
                                           "0010 00000007 1 R4 LDG.E.SYS 1 R2 4 2 0x1000 4 4 -8"},
                                3)),
            "t.traceg:23: expected 2 deltas (active lanes - 1, mask 00000007), found 3");
  std::string cut = trace_of(4, false, {known, exit, known, exit}, 4);
  cut.resize(cut.find(exit + "\n#END_TB") + exit.size());
  EXPECT_EQ(read_error(cut),
            "t.traceg:24: expected a complete instruction line, found end of file in the middle "
            "of the line");
}

}  // namespace
