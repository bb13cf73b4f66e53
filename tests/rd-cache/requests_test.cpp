#include "requests.hpp"

#include <gtest/gtest.h>

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

TEST(Latency, QueueingOnlyWhenTransfersOutlastIssue) {
  GpuConfig g;
  g.l1d.latency = 30;
  g.l2.latency = 200;
  g.dram_latency = 300;
  g.noc_bytes_per_cycle = 5;
  g.dram_bandwidth_gbs = 100;
  g.clock_mhz = 1000;  // 100 GB/s at 1 GHz: 100 bytes per cycle
  EXPECT_DOUBLE_EQ(g.dram_bytes_per_cycle(), 100.0);
  // NoC: 1000 bytes take 200 cycles against 100 of issue: (200 - 100) / 2.
  // DRAM: 5000 bytes take 50 cycles, within the 100 of issue: no queueing.
  const rdcache::LatencyModel m = rdcache::latency_model(g, 100, 1000, 5000);
  EXPECT_DOUBLE_EQ(m.noc_queue, 50.0);
  EXPECT_DOUBLE_EQ(m.dram_queue, 0.0);
  EXPECT_DOUBLE_EQ(rdcache::amat(m, 0.5, 0.25), 30 + 0.5 * (200 + 50 + 0.25 * 300));
  g.noc_bytes_per_cycle = 0;  // unlimited
  EXPECT_DOUBLE_EQ(rdcache::latency_model(g, 100, 1000, 5000).noc_queue, 0.0);
}
