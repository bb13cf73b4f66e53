#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "formats/cta_payload.hpp"
#include "formats/records.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::stream;
using sasskit::test::error_of;

namespace {

// Entry 0: an ALU instruction; 1: a 4-byte load; 2: an 8-byte store.
std::vector<StaticInst> table() {
  return {StaticInst{0x00, std::nullopt, "IADD3", {1}, {2}, 0, std::nullopt},
          StaticInst{0x10, std::nullopt, "LDG.E", {4}, {2}, 4, std::nullopt},
          StaticInst{0x20, std::nullopt, "STG.E", {}, {2, 4}, 8, std::nullopt}};
}

// One warp holding every lane rule: coalesced, divergent with a lane
// stride, irregular small deltas, random wide gathers, no active lane
// (base and stride kept as extras), one active lane (stride kept).
WarpTrace every_lane_kind() {
  WarpTrace w;
  w.warp_id = 3;
  auto mem = [&](uint32_t inst, uint32_t mask, uint8_t mode, std::vector<uint64_t> addrs,
                 std::vector<uint64_t> extra = {}) {
    w.inst.push_back(inst);
    w.mask.push_back(mask);
    w.addr_mode.push_back(mode);
    w.addrs.insert(w.addrs.end(), addrs.begin(), addrs.end());
    w.addr_extra.insert(w.addr_extra.end(), extra.begin(), extra.end());
  };
  std::mt19937_64 rng(7);
  for (int loop = 0; loop < 3; ++loop) {
    w.inst.push_back(0);
    w.mask.push_back(0xffffffff);
    std::vector<uint64_t> coalesced, random;
    for (uint64_t j = 0; j < 32; ++j) coalesced.push_back(0x7f0000001000 + 0x80 * loop + 4 * j);
    for (uint64_t j = 0; j < 32; ++j) random.push_back(rng());
    mem(1, 0xffffffff, 1, coalesced);
    mem(2, 0xffffffff, 0, random);
  }
  mem(1, 0x0000000a, 1, {0x1000, 0x1010});               // lanes 1 and 3: lane stride 8
  mem(1, 0x00000007, 2, {0x2000, 0x2004, 0x1ff0});       // irregular
  mem(2, 0x00000000, 1, {}, {0x5000, uint64_t(-8)});     // no lane: base, stride
  mem(2, 0x00000100, 1, {0x6000}, {16});                 // one lane: stride
  mem(1, 0x00000000, 2, {}, {0x7000});                   // no lane, base+delta: base
  return w;
}

std::string record_bytes(const CtaTrace& c, bool with_table) {
  std::ostringstream out;
  Writer w(out, "t", Header{}, Stage{"t", "0", {}});
  KernelInfo k;
  k.id = c.kernel_id;
  w.write(k);
  if (with_table) w.write(InstTable{c.kernel_id, 0, table()});
  w.write(c);
  w.finish();
  return out.str();
}

CtaTrace read_cta(const std::string& bytes, std::string* cta_record = nullptr) {
  std::istringstream in(bytes);
  Reader r(in, "t");
  Record rec;
  while (r.next(rec))
    if (rec.type() == stream::RecordType::Cta) {
      if (cta_record) *cta_record = rec.bytes();
      return decode<CtaTrace>(rec);
    }
  ADD_FAILURE() << "no cta record";
  return {};
}

}  // namespace

TEST(CtaPayload, EveryLaneRuleRoundTrips) {
  CtaTrace c;
  c.kernel_id = 1;
  c.cta = {2, 0, 0};
  c.warps = {every_lane_kind(), every_lane_kind()};
  c.warps[1].warp_id = 9;
  validate_cta(c, table(), "test");
  EXPECT_EQ(decode_warps(encode_warps(c.warps, table()), "t"), c.warps);
  EXPECT_EQ(read_cta(record_bytes(c, true)), c);
}

TEST(CtaPayload, CompactRecordIsFarSmallerThanTheExpandedOne) {
  CtaTrace c;
  c.kernel_id = 1;
  c.cta = {0, 0, 0};
  for (uint32_t i = 0; i < 8; ++i) {
    WarpTrace w = every_lane_kind();
    w.warp_id = i;
    c.warps.push_back(w);
  }
  std::string compact, expanded;
  EXPECT_EQ(read_cta(record_bytes(c, true), &compact), c);
  EXPECT_EQ(read_cta(record_bytes(c, false), &expanded), c);  // no table: expanded form
  EXPECT_NE(compact.find("data"), std::string::npos);
  EXPECT_NE(expanded.find("warps"), std::string::npos);
  EXPECT_LT(compact.size() * 2, expanded.size()) << compact.size() << " vs " << expanded.size();
}

TEST(CtaPayload, ACtaThatDisagreesWithTheTableIsWrittenExpandedAndRefusedByValidation) {
  CtaTrace c;
  c.kernel_id = 1;
  c.cta = {0, 0, 0};
  WarpTrace w;
  w.inst = {1};
  w.mask = {0x3};
  w.addr_mode = {0};
  w.addrs = {0x10};  // two lanes active, one address
  c.warps = {w};
  std::string bytes;
  EXPECT_EQ(read_cta(record_bytes(c, true), &bytes), c);
  EXPECT_NE(bytes.find("warps"), std::string::npos);
  EXPECT_THROW(validate_cta(c, table(), "t"), Error);
}

TEST(CtaPayload, DamagedPayloadsAreRefusedWithoutAllocatingAhead) {
  const std::string good = encode_warps({every_lane_kind()}, table());
  for (size_t cut = 0; cut < good.size(); ++cut)
    EXPECT_THROW(decode_warps(good.substr(0, cut), "t"), Error) << "cut at " << cut;
  EXPECT_THROW(decode_warps(good + "x", "t"), Error);
  // A warp count or an instruction count larger than the bytes that follow.
  EXPECT_THROW(decode_warps(std::string("\xff\xff\xff\x0f", 4), "t"), Error);
  EXPECT_THROW(decode_warps(std::string("\x01\x00\xff\xff\xff\xff\x0f", 7), "t"), Error);
  try {
    decode_warps(std::string("\x01\x00\xff\xff\xff\xff\x0f", 7), "here");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("damaged cta record"), std::string::npos) << e.what();
  }
}

namespace {

// A table of `n` 4-byte loads, and a warp using each twice with coalesced
// lanes: enough distinct instructions to make the reader's model grow.
std::vector<StaticInst> loads(uint32_t n) {
  std::vector<StaticInst> t;
  for (uint32_t i = 0; i < n; ++i) t.push_back(StaticInst{0x10 * i, std::nullopt, "LDG.E", {4}, {2}, 4, std::nullopt});
  return t;
}

WarpTrace warp_over(uint32_t n) {
  WarpTrace w;
  for (uint64_t pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < n; ++i) {
      w.inst.push_back(i);
      w.mask.push_back(0xffffffff);
      w.addr_mode.push_back(1);
      for (uint64_t j = 0; j < 32; ++j) w.addrs.push_back(0x7f0000000000 + 0x1000 * i + 0x80 * pass + 4 * j);
    }
  return w;
}

// The warps numbered 0, 1, ... as in a CTA: a number comes once per CTA.
std::vector<WarpTrace> numbered(std::vector<WarpTrace> warps) {
  for (uint32_t i = 0; i < warps.size(); ++i) warps[i].warp_id = i;
  return warps;
}

}  // namespace

TEST(CtaPayload, AWarpNumberTwiceInACtaIsRefused) {
  const std::string payload = encode_warps({every_lane_kind(), every_lane_kind()}, table());
  const std::string e = error_of([&] { decode_warps(payload, "t"); });
  EXPECT_EQ(e, "t: warp 3 appears twice in the CTA");
}

TEST(CtaPayload, ManyInstructionsOfOneWarpRoundTrip) {
  const std::vector<WarpTrace> warps = numbered({warp_over(700), warp_over(3)});
  EXPECT_EQ(decode_warps(encode_warps(warps, loads(700)), "t"), warps);
}

TEST(CtaPayload, TheReaderSkippingAddressesReadsTheColumnsDecodingDoes) {
  const std::vector<WarpTrace> warps = numbered({every_lane_kind(), warp_over(5), every_lane_kind()});
  std::vector<StaticInst> t = table();
  for (const StaticInst& s : loads(5)) t.push_back(s);
  std::vector<WarpTrace> shifted = warps;  // warp_over's loads come after table()'s entries
  for (uint32_t& i : shifted[1].inst) i += 3;
  const std::string payload = encode_warps(shifted, t);
  PayloadReader in(payload, "t");
  EXPECT_EQ(in.warps(), 3u);
  for (const WarpTrace& w : shifted) {
    ASSERT_TRUE(in.next_warp(false));
    EXPECT_EQ(in.warp_id(), w.warp_id);
    EXPECT_EQ(std::vector<uint32_t>(in.inst().begin(), in.inst().end()), w.inst);
    EXPECT_EQ(std::vector<uint32_t>(in.mask().begin(), in.mask().end()), w.mask);
    EXPECT_EQ(in.memory().size(), w.addr_mode.size());
    EXPECT_TRUE(warp_agrees_with(in, t));
    EXPECT_FALSE(warp_agrees_with(in, loads(5)));
  }
  EXPECT_FALSE(in.next_warp(false));
}

TEST(CtaPayload, TheReaderSkippingAddressesRefusesDamageAsDecodingDoes) {
  const std::string good = encode_warps(numbered({every_lane_kind(), every_lane_kind()}), table());
  auto skim = [](const std::string& payload) {
    PayloadReader in(payload, "t");
    while (in.next_warp(false)) {
    }
  };
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const std::string damaged = good.substr(0, cut);
    const std::string expected = error_of([&] { decode_warps(damaged, "t"); });
    EXPECT_NE(expected, "");
    EXPECT_EQ(error_of([&] { skim(damaged); }), expected) << "cut at " << cut;
  }
  // A lane kind, shift or width no writer makes, at each byte in turn.
  for (size_t at = 0; at < good.size(); ++at) {
    std::string damaged = good;
    damaged[at] = '\x7f';
    EXPECT_EQ(error_of([&] { skim(damaged); }), error_of([&] { decode_warps(damaged, "t"); })) << "byte " << at;
  }
}

// The reader says which lanes the payload codes as consecutive lanes of a
// stride: those, and a single lane, only.
TEST(CtaPayload, TheReaderSaysWhichLanesStepByAStride) {
  WarpTrace w;
  auto mem = [&](uint32_t mask, std::vector<uint64_t> addrs) {
    w.inst.push_back(1);
    w.mask.push_back(mask);
    w.addr_mode.push_back(0);
    w.addrs.insert(w.addrs.end(), addrs.begin(), addrs.end());
  };
  mem(0x0000000f, {0x1000, 0x1004, 0x1008, 0x100c});  // consecutive, stride 4
  mem(0x0000000f, {0x1000, 0xff8, 0xff0, 0xfe8});     // falling, stride -8
  mem(0x0000000b, {0x1000, 0x1004, 0x100c});          // lane 2 inactive: a lane stride, not consecutive
  mem(0x00000007, {0x2000, 0x2004, 0x1ff0});          // irregular
  mem(0x00000100, {0x3000});                          // one lane
  mem(0x00000000, {});                                // none
  const std::string payload = encode_warps({w}, table());
  PayloadReader in(payload, "t");
  ASSERT_TRUE(in.next_warp(true));
  std::array<uint64_t, 32> lanes;
  const std::pair<bool, uint64_t> expected[] = {{true, 4}, {true, uint64_t(-8)}, {false, 0},
                                                {false, 0}, {true, 0}, {false, 0}};
  for (size_t k = 0; k < std::size(expected); ++k) {
    const PayloadReader::Access a = in.read_access(lanes.data());
    EXPECT_EQ(a.affine, expected[k].first) << k;
    if (a.affine) {
      EXPECT_EQ(a.stride, expected[k].second) << k;
    }
  }
  EXPECT_FALSE(in.next_warp(true));

  // With affine_first_only, affine lanes get their first address only,
  // the others every one.
  PayloadReader first_only(payload, "t");
  ASSERT_TRUE(first_only.next_warp(true));
  size_t lane = 0;
  for (size_t k = 0; k < std::size(expected); ++k) {
    lanes.fill(0);
    const unsigned n = active_lanes(w.mask[k]);
    first_only.read_access(lanes.data(), true);
    const unsigned written = expected[k].first ? std::min(n, 1u) : n;
    for (unsigned j = 0; j < n; ++j) EXPECT_EQ(lanes[j], j < written ? w.addrs[lane + j] : 0) << k << " " << j;
    lane += n;
  }
}

// Counting by unit reads through the addresses: the counts decoding gives,
// and nothing counted where a reader must decode instead.
TEST(CtaPayload, CountingUnitsFromThePayloadMatchesCountingDecodedWarps) {
  const std::vector<WarpTrace> warps = numbered({every_lane_kind(), every_lane_kind()});
  const std::vector<UnitClass> unit_of = {UnitClass::Int, UnitClass::Ldst, UnitClass::Sfu};
  const std::string payload = encode_warps(warps, table());
  UnitCounts counts{};
  ASSERT_TRUE(count_payload_units(payload, "t", table(), unit_of, counts));
  EXPECT_EQ(counts, count_units(warps, [&](uint32_t i) { return unit_of[i]; }));
  EXPECT_EQ(counts[static_cast<size_t>(UnitClass::Sfu)], 2u * 5);  // the 8-byte store's entry
  EXPECT_EQ(total(counts), 2 * warps[0].inst.size());

  const UnitCounts untouched = {1, 2, 3};
  UnitCounts kept = untouched;
  EXPECT_FALSE(count_payload_units(payload, "t", loads(3), unit_of, kept));  // disagrees with the table
  EXPECT_FALSE(count_payload_units(encode_warps({}, table()), "t", table(), unit_of, kept));  // no warp
  EXPECT_EQ(kept, untouched);
  const std::string cut = payload.substr(0, payload.size() - 1);
  EXPECT_EQ(error_of([&] { count_payload_units(cut, "t", table(), unit_of, kept); }),
            error_of([&] { decode_warps(cut, "t"); }));
}

// A warp whose columns repeat the warp's before it, in its payload or, for
// a reader restarted, in the payload before, is read as the first was.
TEST(CtaPayload, TheReaderTakesRepeatedColumnsAsRead) {
  std::vector<StaticInst> t = table();
  for (const StaticInst& s : loads(5)) t.push_back(s);
  std::vector<WarpTrace> warps = numbered({every_lane_kind(), every_lane_kind(), warp_over(5), every_lane_kind()});
  for (uint32_t& i : warps[2].inst) i += 3;  // warp_over's loads come after table()'s entries
  const std::string payload = encode_warps(warps, t);
  EXPECT_EQ(decode_warps(payload, "t"), warps);
  PayloadReader in(payload, "t");
  const bool repeats[] = {false, true, false, false};
  for (size_t k = 0; k < warps.size(); ++k) {
    ASSERT_TRUE(in.next_warp(true));
    EXPECT_EQ(in.columns_repeat(), repeats[k]) << k;
    EXPECT_EQ(std::vector<uint32_t>(in.inst().begin(), in.inst().end()), warps[k].inst) << k;
    EXPECT_EQ(std::vector<uint32_t>(in.mask().begin(), in.mask().end()), warps[k].mask) << k;
    EXPECT_EQ(in.memory().size(), warps[k].addr_mode.size()) << k;
    std::vector<uint64_t> addrs;
    for (uint32_t i : in.memory()) {
      std::array<uint64_t, 32> lanes;
      in.read_access(lanes.data());
      addrs.insert(addrs.end(), lanes.begin(), lanes.begin() + active_lanes(in.mask()[i]));
    }
    EXPECT_EQ(addrs, warps[k].addrs) << k;
  }
  EXPECT_FALSE(in.next_warp(true));
  // The next payload's first warp repeats this one's last.
  const std::vector<WarpTrace> next = numbered({every_lane_kind()});
  const std::string next_payload = encode_warps(next, t);
  in.restart(next_payload);
  ASSERT_TRUE(in.next_warp(false));
  EXPECT_TRUE(in.columns_repeat());
  EXPECT_EQ(std::vector<uint32_t>(in.inst().begin(), in.inst().end()), next[0].inst);
  EXPECT_FALSE(in.next_warp(false));
}

// Columns a read failed in are not taken as read: the reader, restarted on
// a payload whose warp repeats the last good one, reads that warp afresh.
TEST(CtaPayload, ColumnsThatFailedToReadAreNotTakenAsRead) {
  const std::string good = encode_warps(numbered({every_lane_kind()}), table());
  WarpTrace alu;
  alu.inst = {0, 0, 0, 0};
  alu.mask = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff};
  std::string bad = encode_warps(numbered({alu}), table());
  bad.back() = '\x05';  // its memory-instruction count, after the instructions were read
  PayloadReader in(good, "t");
  ASSERT_TRUE(in.next_warp(false));
  in.restart(bad);
  EXPECT_EQ(error_of([&] { in.next_warp(false); }), "t: damaged cta record: 5 memory instructions among 4");
  in.restart(good);
  ASSERT_TRUE(in.next_warp(false));
  EXPECT_FALSE(in.columns_repeat());
  EXPECT_EQ(std::vector<uint32_t>(in.inst().begin(), in.inst().end()), every_lane_kind().inst);
}
