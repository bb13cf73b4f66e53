// count_payload reads a compact cta payload once and must give exactly
// what decoding it and count_cta / cta_accesses give.
#include "kernel_accesses.hpp"

#include <gtest/gtest.h>

#include <random>

#include "formats/cta_payload.hpp"
#include "same_accesses.hpp"

using namespace sasskit;
using namespace sasskit::rdcache;

using sasskit::rdcache::test::expect_same;

namespace {

GpuConfig gpu() {
  GpuConfig g;
  g.l1d.line_bytes = 128;
  g.l1d.sector_bytes = 32;
  return g;
}

KernelAccesses kernel(const GpuConfig& g) {
  KernelInfo info;
  info.id = 1;
  info.binary_version = 70;
  KernelAccesses k(info, g);
  const std::pair<const char*, uint32_t> insts[] = {{"IADD3", 0}, {"LDG.E.SYS", 4}, {"STS", 4},
                                                    {"LDS", 4},   {"LDG.E.64.SYS", 8}, {"FFMA", 0}};
  std::vector<StaticInst> table;
  for (const auto& [opcode, width] : insts)
    table.push_back(StaticInst{0x10 * (table.size() + 1), std::nullopt, opcode, {}, {}, width, std::nullopt});
  add_insts(k, table);
  return k;
}

// Warps of random instructions, masks (some empty) and lanes (coalesced,
// strided, scattered), in address mode 0.
CtaTrace random_cta(const KernelAccesses& k, std::mt19937_64& rng) {
  CtaTrace cta;
  for (uint32_t w = 0; w < 3; ++w) {
    WarpTrace warp;
    warp.warp_id = w;
    for (int i = 0; i < 80; ++i) {
      const auto idx = static_cast<uint32_t>(rng() % k.table.size());
      const uint32_t mask = rng() % 5 == 0 ? static_cast<uint32_t>(rng() % 4 == 0 ? 0 : rng()) : 0xffffffffu;
      warp.inst.push_back(idx);
      warp.mask.push_back(mask);
      if (k.table[idx].mem_width == 0) continue;
      warp.addr_mode.push_back(0);
      const uint64_t base = 0x7f0000000000 + (rng() % 64) * 128;
      const uint64_t stride = rng() % 3 == 0 ? 128 : k.table[idx].mem_width;
      for (unsigned lane = 0; lane < 32; ++lane)
        if (mask & (1u << lane)) warp.addrs.push_back(rng() % 6 == 0 ? base + rng() % 65536 : base + lane * stride);
    }
    cta.warps.push_back(std::move(warp));
  }
  return cta;
}

std::vector<UnitClass> units_of(const KernelAccesses& k) {
  std::vector<UnitClass> units;
  for (const StaticInst& s : k.table) units.push_back(s.mem_width ? UnitClass::Ldst : UnitClass::Int);
  return units;
}

}  // namespace

TEST(KernelAccesses, ThePayloadReadOnceCountsAndLoadsWhatTheDecodedTraceDoes) {
  const GpuConfig g = gpu();
  KernelAccesses decoded = kernel(g), read = kernel(g);
  const std::vector<UnitClass> units = units_of(read);
  std::mt19937_64 rng(5);
  CtaAccesses loaded;  // reused from CTA to CTA, as rd-cache does
  for (uint32_t c = 0; c < 20; ++c) {
    const CtaTrace cta = random_cta(decoded, rng);
    const std::string payload = stream::encode_warps(cta.warps, decoded.table);
    count_cta(decoded, cta, "decoded");
    UnitCounts counted{};
    ASSERT_TRUE(count_payload(read, payload, "read", units, counted, loaded));
    EXPECT_EQ(counted, count_units(cta.warps, [&](uint32_t i) { return units[i]; }));
    loaded.linear = c;
    expect_same(loaded, cta_accesses(decoded, cta, c));
  }
  EXPECT_EQ(read.lane_addresses, decoded.lane_addresses);
  EXPECT_GT(read.lane_addresses, 0u);
  for (size_t c = 0; c < kCategories; ++c) {
    EXPECT_EQ(read.uncached[c].requests, decoded.uncached[c].requests) << category_name(c);
    EXPECT_EQ(read.uncached[c].sectors, decoded.uncached[c].sectors) << category_name(c);
  }
  EXPECT_GT(read.uncached[static_cast<size_t>(MemSpace::Shared) * kOps].requests, 0u);

  // A CTA of fewer warps than the buffer held before keeps only its own.
  CtaTrace one = random_cta(decoded, rng);
  one.warps.resize(1);
  UnitCounts counted{};
  ASSERT_TRUE(count_payload(read, stream::encode_warps(one.warps, decoded.table), "read", units, counted, loaded));
  loaded.linear = 0;
  expect_same(loaded, cta_accesses(decoded, one, 0));
}

TEST(KernelAccesses, APayloadTheFastReadDoesNotTakeCountsNothing) {
  const GpuConfig g = gpu();
  KernelAccesses k = kernel(g);
  const std::vector<UnitClass> units = units_of(k);
  WarpTrace w;
  w.inst = {1, 0, 3};
  w.mask = {0xf, 0xffffffff, 0x3};
  w.addr_mode = {0, 0};
  w.addrs = {0x1000, 0x1004, 0x1008, 0x100c, 0x20, 0x24};
  UnitCounts counted{};
  CtaAccesses accesses;
  ASSERT_TRUE(count_payload(k, stream::encode_warps({w}, k.table), "w", units, counted, accesses));
  const KernelAccesses before = k;

  WarpTrace past_the_end = w;  // an address whose last byte is beyond 2^64: count_cta says so
  past_the_end.warp_id = 1;
  past_the_end.addrs[2] = UINT64_MAX - 1;
  EXPECT_FALSE(count_payload(k, stream::encode_warps({w, past_the_end}, k.table), "w", units, counted, accesses));

  // Instruction 0 is no memory instruction of this table, yet the payload
  // (written against another table) lists it: validate_cta says so.
  std::vector<StaticInst> other = k.table;
  other[0].mem_width = 4;
  WarpTrace listed = w;
  listed.inst = {0};
  listed.mask = {1};
  listed.addr_mode = {0};
  listed.addrs = {0x40};
  EXPECT_FALSE(count_payload(k, stream::encode_warps({listed}, other), "w", units, counted, accesses));

  EXPECT_EQ(k.lane_addresses, before.lane_addresses);
  for (size_t c = 0; c < kCategories; ++c) EXPECT_EQ(k.uncached[c].requests, before.uncached[c].requests);
}

TEST(KernelAccesses, AWarpKeepsTheL1LinesItsCachedLanesTouch) {
  const GpuConfig g = gpu();
  const KernelAccesses k = kernel(g);
  CtaTrace cta;
  WarpTrace w;
  w.inst = {1, 3, 4};  // a global load, a shared load (uncached), a 64-bit global load
  w.mask = {0xf, 0x3, 0x7};
  w.addr_mode = {0, 0, 0};
  w.addrs = {0x1000, 0x1004, 0x1008, 0x1020, 0x20, 0x24, 0x2078, 0x1000, 0x2000};
  cta.warps.push_back(w);
  const WarpAccesses a = cta_accesses(k, cta, 0).warps[0];
  EXPECT_EQ(a.pos, (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(a.line_begin, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(a.lines, (std::vector<LineAccess>{{0x20, 0b11}, {0x20, 0b1}, {0x40, 0b1001}}));
  KernelAccesses counting = k;
  const std::vector<UnitClass> units = units_of(k);
  UnitCounts counted{};
  CtaAccesses read;
  ASSERT_TRUE(count_payload(counting, stream::encode_warps({w}, k.table), "w", units, counted, read));
  EXPECT_EQ(read.warps[0].lines, a.lines);
}

// Affine lanes are checked at their ends unless they wrap past 2^64; the
// verdict is the one the decoded trace gets.
TEST(KernelAccesses, AffineLanesRunningPastTheAddressSpaceAreRefused) {
  const GpuConfig g = gpu();
  const std::vector<UnitClass> units = units_of(kernel(g));
  const uint64_t top = UINT64_MAX;
  const std::pair<std::vector<uint64_t>, bool> cases[] = {
      {{top - 15, top - 11, top - 7, top - 3}, true},  // rising, the last lane's 8 bytes run past
      {{top - 3, top - 7, top - 11, top - 15}, true},  // falling, the first lane's run past
      {{top - 23, top - 19, top - 15, top - 11}, false},
      {{top - 11, top - 7, top - 3, 0}, true},   // wrapping: a middle lane runs past
      {{top - 15, top - 7, 0, 8}, false},        // wrapping, each lane within
  };
  for (const auto& [addrs, past] : cases) {
    KernelAccesses k = kernel(g);
    WarpTrace w;
    w.inst = {4};  // an 8-byte global load
    w.mask = {0xf};
    w.addr_mode = {0};
    w.addrs = addrs;
    UnitCounts counted{};
    CtaAccesses accesses;
    EXPECT_EQ(count_payload(k, stream::encode_warps({w}, k.table), "w", units, counted, accesses), !past)
        << std::hex << addrs[0];
    CtaTrace cta;
    cta.warps = {w};
    bool refused = false;
    try {
      count_cta(k, cta, "w");
    } catch (const Error&) {
      refused = true;
    }
    EXPECT_EQ(refused, past) << std::hex << addrs[0];
  }
}

// The reader is reused from CTA to CTA: a damaged payload after good ones
// still fails as decode_warps does, naming its own record, and the next
// good payload reads as before.
TEST(KernelAccesses, ADamagedPayloadAfterGoodOnesFailsNamingItsRecord) {
  const GpuConfig g = gpu();
  KernelAccesses k = kernel(g);
  const std::vector<UnitClass> units = units_of(k);
  std::mt19937_64 rng(9);
  const CtaTrace cta = random_cta(k, rng);
  const std::string good = stream::encode_warps(cta.warps, k.table);
  UnitCounts counted{};
  CtaAccesses accesses;
  ASSERT_TRUE(count_payload(k, good, "first", units, counted, accesses));
  const CtaAccesses first = accesses;
  const std::string damaged = good.substr(0, good.size() / 2);
  std::string expected;
  try {
    stream::decode_warps(damaged, "record 7");
  } catch (const Error& e) {
    expected = std::string(e.where()) + ": " + e.what();
  }
  ASSERT_FALSE(expected.empty());
  try {
    count_payload(k, damaged, "record 7", units, counted, accesses);
    ADD_FAILURE() << "a damaged payload was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.where()) + ": " + e.what(), expected);
  }
  ASSERT_TRUE(count_payload(k, good, "third", units, counted, accesses));
  expect_same(accesses, first);
}
