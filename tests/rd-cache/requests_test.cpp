#include "requests.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "latency.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::rdcache;

namespace {

std::vector<LineAccess> lines_of(const std::vector<uint64_t>& addrs, uint32_t width) {
  std::vector<LineAccess> out;
  coalesce(addrs, width, LineShape{128, 32}, out);
  return out;
}

std::vector<uint64_t> lanes(uint64_t base, uint64_t stride, unsigned n = 32) {
  std::vector<uint64_t> a;
  for (unsigned i = 0; i < n; ++i) a.push_back(base + i * stride);
  return a;
}

bool same(const std::vector<LineAccess>& a, const std::vector<LineAccess>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].line != b[i].line || a[i].mask != b[i].mask) return false;
  return true;
}

GpuConfig gpu_with(bool l1_global_loads, bool l1_write_allocate) {
  GpuConfig g;
  g.l1_caches_global_loads = l1_global_loads;
  g.l1d.write_allocate = l1_write_allocate;
  g.l1d.write_policy = WritePolicy::WriteThrough;
  g.l2.write_allocate = true;
  g.l2.write_policy = WritePolicy::WriteBack;
  return g;
}

OpcodeInfo info(MemSpace space, bool load, bool store, bool atomic) {
  OpcodeInfo i;
  i.unit = UnitClass::Ldst;
  i.space = space;
  i.is_load = load;
  i.is_store = store;
  i.is_atomic = atomic;
  return i;
}

}  // namespace

TEST(Coalesce, ConsecutiveFloatsOfAWarpFillOneLine) {
  EXPECT_TRUE(same(lines_of(lanes(0x1000, 4), 4), {{0x1000 / 128, 0xF}}));
}

TEST(Coalesce, PartialWarpTouchesOnlyItsSectors) {
  EXPECT_TRUE(same(lines_of(lanes(0x1180, 4, 4), 4), {{0x1180 / 128, 0x1}}));
}

TEST(Coalesce, StridedLanesTouchOneSectorPerLine) {
  const auto out = lines_of(lanes(0x2000, 128), 4);
  ASSERT_EQ(out.size(), 32u);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].mask, 0x1u);
}

TEST(Coalesce, WideAccessStraddlingSectorsAndLines) {
  // 16 bytes at 0x107c..0x108b cross from sector 3 of line 0x20 into sector 0 of line 0x21.
  EXPECT_TRUE(same(lines_of({0x107c}, 16), {{0x20, 0x8}, {0x21, 0x1}}));
}

TEST(Coalesce, UnorderedAndRepeatedAddressesAreSortedAndMerged) {
  EXPECT_TRUE(same(lines_of({0x300, 0x100, 0x104, 0x320, 0x100}, 4), {{0x2, 0x1}, {0x6, 0x3}}));
}

TEST(Coalesce, LastBytesOfTheAddressSpace) {
  EXPECT_TRUE(same(lines_of({UINT64_MAX - 3}, 4), {{UINT64_MAX / 128, 0x8}}));
}

TEST(Route, PascalGlobalLoadsBypassL1LocalLoadsDoNot) {
  const GpuConfig g = gpu_with(false, false);
  const Route ldg = route_of("LDG.E", info(MemSpace::Global, true, false, false), g);
  EXPECT_TRUE(ldg.cached);
  EXPECT_FALSE(ldg.l1_lookup);
  EXPECT_TRUE(ldg.l2_all);
  const Route ldl = route_of("LDL", info(MemSpace::Local, true, false, false), g);
  EXPECT_TRUE(ldl.l1_lookup);
  EXPECT_FALSE(ldl.l2_all);
  EXPECT_EQ(category_name(ldg.category), std::string(mem_space_name(MemSpace::Global)) + ".ld");
}

TEST(Route, CacheGlobalModifierBypassesL1) {
  const GpuConfig g = gpu_with(true, true);
  EXPECT_TRUE(route_of("LDG.E.SYS", info(MemSpace::Global, true, false, false), g).l1_lookup);
  EXPECT_FALSE(route_of("LDG.E.CG.SYS", info(MemSpace::Global, true, false, false), g).l1_lookup);
  EXPECT_TRUE(route_of("LDG.E.CGX", info(MemSpace::Global, true, false, false), g).l1_lookup);
}

TEST(Route, StoresFollowTheWritePolicy) {
  const Route no_alloc = route_of("STG.E", info(MemSpace::Global, false, true, false), gpu_with(true, false));
  EXPECT_FALSE(no_alloc.l1_lookup);
  EXPECT_TRUE(no_alloc.l2_all);
  EXPECT_TRUE(no_alloc.l2_lookup);
  const Route alloc = route_of("STG.E", info(MemSpace::Global, false, true, false), gpu_with(true, true));
  EXPECT_TRUE(alloc.l1_lookup);
  EXPECT_TRUE(alloc.l2_all);
}

TEST(Route, AtomicsGoToL2SharedIsOnlyCounted) {
  const GpuConfig g = gpu_with(true, true);
  const Route atom = route_of("ATOM.E.ADD", info(MemSpace::Global, true, true, true), g);
  EXPECT_FALSE(atom.l1_lookup);
  EXPECT_TRUE(atom.l2_all && atom.l2_lookup);
  const Route lds = route_of("LDS", info(MemSpace::Shared, true, false, false), g);
  EXPECT_FALSE(lds.cached);
  EXPECT_NE(lds.category, atom.category);
}

TEST(Route, UnusableLineShapeIsAUsageError) {
  CacheGeometry g;
  g.line_bytes = 128;
  g.sector_bytes = 48;
  EXPECT_THROW(line_shape(g, "l1"), Error);
}

TEST(Latency, AmatIsTheUnloadedLatencyWhateverTheBandwidth) {
  GpuConfig g;
  g.l1d.latency = 30;
  g.l2.latency = 200;
  g.dram_latency = 300;
  g.noc_bytes_per_cycle = 5;  // a narrow interconnect adds nothing: contention is pipe-sim's
  g.dram_bandwidth_gbs = 100;
  g.clock_mhz = 1000;
  const rdcache::LatencyModel m = rdcache::latency_model(g);
  EXPECT_DOUBLE_EQ(rdcache::amat(m, 0.5, 0.25), 30 + 0.5 * (200 + 0.25 * 300));
  EXPECT_DOUBLE_EQ(rdcache::amat(m, 0, 1), 30.0);
  EXPECT_DOUBLE_EQ(rdcache::amat(m, 1, 1), 30.0 + 200 + 300);
}

// Lanes a payload codes as affine take the shortcut where no step skips a
// sector; every lane set must come out as coalesce has it.
TEST(Coalesce, AffineLanesComeOutAsTheGeneralCoalesce) {
  const LineShape shapes[] = {{128, 32}, {64, 32}, {256, 64}, {32, 32}};
  const uint64_t bases[] = {0x1000, 0x107c, 0x10fe, 0x7f00000000a0, UINT64_MAX - 4095, 0x800};
  std::vector<LineAccess> affine, general;
  size_t shortcuts = 0;
  for (const LineShape& shape : shapes)
    for (uint32_t width : {1u, 4u, 8u, 16u})
      for (uint64_t base : bases)
        for (int64_t stride = -300; stride <= 300; stride += stride >= -40 && stride < 40 ? 1 : 37)
          for (unsigned n : {1u, 2u, 7u, 32u}) {
            const std::vector<uint64_t> a = lanes(base, static_cast<uint64_t>(stride), n);
            if (std::any_of(a.begin(), a.end(), [&](uint64_t s) { return s > UINT64_MAX - (width - 1); })) continue;
            coalesce_affine(base, static_cast<uint64_t>(stride), n, width, shape, affine);
            coalesce(a, width, shape, general);
            ASSERT_EQ(affine, general) << "base " << base << " stride " << stride << " n " << n << " width "
                                       << width << " line " << shape.line_bytes;
            shortcuts += n > 1 && static_cast<uint64_t>(std::abs(stride)) <= std::max(width, shape.sector_bytes);
          }
  EXPECT_GT(shortcuts, 1000u);
}

TEST(Coalesce, AffineLanesThatWrapPastTheAddressSpaceAreCoalescedLaneByLane) {
  // Lanes 0x...ff8, 0x...ffc, 0x0, 0x4: the last two wrap (each range itself does not).
  const std::vector<uint64_t> a = lanes(UINT64_MAX - 7, 4, 4);
  std::vector<LineAccess> affine, general;
  coalesce_affine(a[0], 4, 4, 4, LineShape{128, 32}, affine);
  coalesce(a, 4, LineShape{128, 32}, general);
  EXPECT_EQ(affine, general);
  EXPECT_EQ(affine, (std::vector<LineAccess>{{0, 0x1}, {UINT64_MAX / 128, 0x8}}));
}

namespace {

// The lines and sectors of byte ranges computed the plain way: every byte's
// sector into an ordered set.
std::vector<LineAccess> lines_by_set(const std::vector<uint64_t>& starts, uint32_t bytes, const LineShape& shape) {
  std::set<uint64_t> sectors;
  for (uint64_t start : starts)
    for (uint64_t b = start; b - start < bytes; ++b) sectors.insert(b / shape.sector_bytes);
  std::vector<LineAccess> out;
  for (uint64_t s : sectors) {
    const uint64_t line = s / shape.sectors_per_line();
    const uint32_t bit = 1u << (s % shape.sectors_per_line());
    if (out.empty() || out.back().line != line)
      out.push_back({line, bit});
    else
      out.back().mask |= bit;
  }
  return out;
}

}  // namespace

// Lanes out of order, within a few lines of each other (a bitmap) or
// spread wide (sorted), near the top of the address space too.
TEST(Coalesce, LanesInAnyOrderComeOutAsTheirSetOfSectors) {
  std::mt19937_64 rng(20);
  const LineShape shapes[] = {{128, 32}, {64, 32}, {256, 64}, {32, 32}};
  std::vector<LineAccess> out;
  for (const LineShape& shape : shapes)
    for (uint64_t spread : {64u, 1024u, 8191u, 8192u, 9000u, 1u << 20})
      for (uint32_t width : {1u, 4u, 16u, 64u})
        for (int trial = 0; trial < 40; ++trial) {
          const uint64_t base = trial % 4 == 3 ? UINT64_MAX - spread - width : 0x10000 + rng() % 4096;
          std::vector<uint64_t> a(1 + rng() % 32);
          for (auto& x : a) x = base + rng() % spread;
          coalesce(a, width, shape, out);
          ASSERT_EQ(out, lines_by_set(a, width, shape)) << "spread " << spread << " width " << width;
        }
}
