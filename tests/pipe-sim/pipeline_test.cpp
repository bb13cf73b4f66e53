// Micro-kernels with known timing (issue 7 "Checks"), each within a stated
// tolerance, and the stall bookkeeping identity.
#include <gtest/gtest.h>

#include <numeric>

#include "micro.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

void expect_bookkeeping(const SimCounters& c) {
  // Every scheduler, every active cycle: issued or stalled, never both.
  EXPECT_EQ(c.insts + c.stall_cycles(), c.sched_cycles);
  uint64_t by_event = std::accumulate(c.stall_event.begin(), c.stall_event.end(), uint64_t(0));
  EXPECT_EQ(by_event, c.stall_cycles());
}

std::vector<uint32_t> repeat(uint32_t inst, size_t n) { return std::vector<uint32_t>(n, inst); }

uint64_t type_cycles(const SimCounters& c, StallType t) { return c.stall_type[size_t(t)]; }

}  // namespace

TEST(Pipeline, DependentAddsTakeLatencyEach) {
  TableBuilder t;
  uint32_t add = t.add("IADD3", {1}, {1, 2});
  const size_t n = 200;
  auto s = simulate(test_gpu(), t.insts, {make_cta({make_warp(0, t.insts, repeat(add, n))})});
  // N x 4-cycle latency, plus the pipeline fill: within 2%.
  EXPECT_NEAR(double(s.result.cycles), n * 4.0, n * 4.0 * 0.02);
  EXPECT_EQ(s.result.counters.insts, n);
  expect_bookkeeping(s.result.counters);
  EXPECT_GT(type_cycles(s.result.counters, StallType::ComData), n * 2);
}

TEST(Pipeline, IndependentWarpsAreIssueBound) {
  TableBuilder t;
  std::vector<uint32_t> seq;
  for (uint16_t r = 0; r < 16; ++r) {
    seq.push_back(t.add("IADD3", {uint16_t(10 + r)}, {0, 1}));
    seq.push_back(t.add("FFMA", {uint16_t(40 + r)}, {2, 3}));
  }
  std::vector<uint32_t> body;
  for (int rep = 0; rep < 4; ++rep) body.insert(body.end(), seq.begin(), seq.end());
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 32; ++w) warps.push_back(make_warp(w, t.insts, body));
  auto s = simulate(test_gpu(), t.insts, {make_cta(warps)});
  double insts = 32.0 * body.size();
  // One instruction per scheduler per cycle: 4 per SM cycle, within 5%.
  EXPECT_NEAR(s.result.counters.ipc(), 4.0, 0.2);
  EXPECT_NEAR(double(s.result.cycles), insts / 4, insts / 4 * 0.05);
  expect_bookkeeping(s.result.counters);
}

TEST(Pipeline, BarrierWaitsForTheSlowestWarp) {
  TableBuilder t;
  uint32_t add = t.add("IADD3", {1}, {1, 2});
  uint32_t bar = t.add("BAR.SYNC", {}, {});
  uint32_t tail = t.add("IADD3", {3}, {4, 5});
  std::vector<uint32_t> fast = repeat(add, 10), slow = repeat(add, 100);
  for (auto* v : {&fast, &slow}) {
    v->push_back(bar);
    v->push_back(tail);
  }
  auto s = simulate(test_gpu(), t.insts, {make_cta({make_warp(0, t.insts, fast), make_warp(1, t.insts, slow)})});
  // The fast warp (sub-core 0) waits at the barrier for ~90 adds x 4 cycles.
  EXPECT_NEAR(double(s.result.cycles), 100 * 4.0 + 10, 100 * 4.0 * 0.05);
  EXPECT_NEAR(double(type_cycles(s.result.counters, StallType::Sync)), 90 * 4.0, 90 * 4.0 * 0.05);
  expect_bookkeeping(s.result.counters);
}

TEST(Pipeline, RegisterBankConflictCostsACycle) {
  // Three sources in one bank (two banks, two ports each): one extra read
  // cycle per instruction of a dependent chain.
  TableBuilder a, b;
  uint32_t conflict = a.add("FFMA", {0}, {0, 2, 4});
  uint32_t clean = b.add("FFMA", {0}, {0, 3, 5});
  const size_t n = 100;
  auto slow = simulate(test_gpu(), a.insts, {make_cta({make_warp(0, a.insts, repeat(conflict, n))})});
  auto fast = simulate(test_gpu(), b.insts, {make_cta({make_warp(0, b.insts, repeat(clean, n))})});
  EXPECT_NEAR(double(slow.result.cycles - fast.result.cycles), double(n), n * 0.05);
  EXPECT_GE(slow.result.counters.reg_bank_conflicts, n);
  EXPECT_EQ(fast.result.counters.reg_bank_conflicts, 0u);
  expect_bookkeeping(slow.result.counters);
}

TEST(Pipeline, MemoryBoundLoopFollowsTheConfiguredLatency) {
  // Pointer chase: each load's address comes from the previous load.
  TableBuilder t;
  uint32_t ld = t.add("LDG.E", {4}, {4}, 4);
  uint32_t add = t.add("IADD3", {4}, {4, 6});
  std::vector<uint32_t> seq;
  const size_t n = 20;
  for (size_t i = 0; i < n; ++i) {
    seq.push_back(ld);
    seq.push_back(add);
  }
  GpuConfig g = test_gpu();
  for (double l2_hit : {1.0, 0.0}) {
    auto s = simulate(g, t.insts, {make_cta({make_warp(0, t.insts, seq)})}, 8, MemoryDefaults{0.0, l2_hit});
    double load = g.l2.latency + (l2_hit ? 0 : g.dram_latency);
    double expected = n * (load + 4);
    EXPECT_NEAR(double(s.result.cycles), expected, expected * 0.05) << "l2 hit rate " << l2_hit;
    EXPECT_GT(type_cycles(s.result.counters, StallType::MemData), n * (load - 10));  // one busy scheduler
    expect_bookkeeping(s.result.counters);
  }
}

namespace {

// One CTA of 16 warps running `seq`, each access a line of its own, on a
// test GPU whose DRAM moves 32 bytes per cycle.
std::vector<CtaTrace> line_per_access_cta(const std::vector<StaticInst>& table, const std::vector<uint32_t>& seq) {
  std::vector<WarpTrace> warps;
  uint64_t lines = seq.size();
  for (uint32_t w = 0; w < 16; ++w)
    warps.push_back(make_warp(w, table, seq, [w, lines](uint32_t lane, uint32_t k) {
      return 0x1000000ull + 4 * lane + 128ull * (lines * w + k);
    }));
  return {make_cta(warps)};
}
GpuConfig dram_32_bytes_per_cycle() {
  GpuConfig g = test_gpu();
  g.clock_mhz = 1000;
  g.dram_bandwidth_gbs = 32;
  return g;
}

}  // namespace

TEST(Pipeline, DramBandwidthBoundsMissingLoads) {
  // 16 warps x 32 independent loads of one 128-byte line each, all L2
  // misses: 64 KiB through a 32 bytes/cycle DRAM share take 2048 cycles,
  // and the last load's latency comes on top.
  TableBuilder t;
  std::vector<uint32_t> seq;
  for (uint16_t r = 0; r < 32; ++r) seq.push_back(t.add("LDG.E", {uint16_t(100 + r)}, {2}, 4));
  seq.push_back(t.add("IADD3", {3}, {131, 3}));  // waits for the last load
  std::vector<CtaTrace> ctas = line_per_access_cta(t.insts, seq);
  GpuConfig g = dram_32_bytes_per_cycle();
  const MemoryDefaults all_miss{0.0, 0.0};
  auto one = simulate(g, t.insts, ctas, 8, all_miss, 1);
  double transfer = 16 * 32 * 128 / 32.0, latency = g.l2.latency + g.dram_latency;
  EXPECT_GE(double(one.result.cycles), transfer);
  EXPECT_NEAR(double(one.result.cycles), transfer + latency, 0.1 * (transfer + latency));
  // Two SMs share the chip's bandwidth: each gets half.
  auto two = simulate(g, t.insts, ctas, 8, all_miss, 2);
  EXPECT_NEAR(double(two.result.cycles), 2 * transfer + latency, 0.1 * (2 * transfer + latency));
  EXPECT_GT(type_cycles(two.result.counters, StallType::MemData), type_cycles(one.result.counters, StallType::MemData));
  // The stream sustains only dram-efficiency of the peak, never more.
  g.dram_efficiency = 0.5;
  auto derated = simulate(g, t.insts, ctas, 8, all_miss, 1);
  EXPECT_GE(double(derated.result.cycles), 2 * transfer);
  EXPECT_NEAR(double(derated.result.cycles), 2 * transfer + latency, 0.1 * (2 * transfer + latency));
  g.dram_efficiency = 1;
  // Unlimited DRAM bandwidth: latency-bound, far faster.
  g.dram_bandwidth_gbs = 0;
  auto free = simulate(g, t.insts, ctas, 8, all_miss, 1);
  EXPECT_LT(double(free.result.cycles), 0.5 * transfer);
  expect_bookkeeping(one.result.counters);
}

namespace {
// rd-cache's record for `table`: every access misses L1 and L2, and each
// sector sent to L2 evicts `writeback_per_sector` dirty sectors.
KernelCacheModel all_miss_record(const std::vector<StaticInst>& table, double writeback_per_sector) {
  KernelCacheModel c;
  c.kernel_id = 1;
  for (const StaticInst& s : table) {
    if (!s.mem_width) continue;
    c.pc.push_back(s.pc);
    c.amat.push_back(0);
    c.pc_l1_hit_rate.push_back(0);
    c.pc_l2_hit_rate.push_back(0);
    c.pc_requests.push_back(1000);
    c.pc_sectors.push_back(1000);
    c.pc_l2_sectors.push_back(1000);
    c.pc_writeback_sectors.push_back(static_cast<uint64_t>(1000 * writeback_per_sector));
  }
  return c;
}
}  // namespace

TEST(Pipeline, StoresTakeDramBandwidthWhenTheirDirtyLinesAreWrittenBack) {
  // 16 warps x 32 stores of whole lines, all L2 misses, then 32 loads of
  // other lines that miss too. A write-back L2 allocates the stored sectors
  // without reading DRAM (NVIDIA's L2 keeps per-byte write masks; Accel-Sim's
  // logs show no DRAM reads for them); DRAM sees them when the dirty lines
  // are evicted, at the rate rd-cache's record gives.
  TableBuilder t;
  std::vector<uint32_t> seq;
  for (uint16_t r = 0; r < 32; ++r) seq.push_back(t.add("STG.E", {}, {2, 3}, 4));
  for (uint16_t r = 0; r < 32; ++r) seq.push_back(t.add("LDG.E", {uint16_t(100 + r)}, {2}, 4));
  seq.push_back(t.add("IADD3", {3}, {131, 3}));
  std::vector<CtaTrace> ctas = line_per_access_cta(t.insts, seq);
  GpuConfig g = dram_32_bytes_per_cycle();
  g.l2.write_policy = WritePolicy::WriteBack;
  g.l2.write_allocate = true;
  const double lines = 16 * 32, line_cycles = 128 / 32.0, latency = g.l2.latency + g.dram_latency;
  const double loads = lines * line_cycles;
  // Everything fits in L2: nothing is evicted, only the loads use DRAM.
  const KernelCacheModel fits = all_miss_record(t.insts, 0);
  auto kept = simulate(g, t.insts, ctas, 8, {}, 1, &fits);
  EXPECT_NEAR(double(kept.result.cycles), loads + latency, 0.1 * (loads + latency));
  EXPECT_EQ(kept.result.counters.dram_read_sectors, 4 * lines);
  EXPECT_EQ(kept.result.counters.dram_write_sectors, 0u);
  // The L2 sectors are the stores' and the loads', the stores' counted apart.
  EXPECT_EQ(kept.result.counters.l2_sectors, 2 * 4 * lines);
  EXPECT_EQ(kept.result.counters.l2_write_sectors, 4 * lines);
  // Streaming: every sector sent to L2 evicts a dirty one. The stores' write-backs
  // and the loads' evictions of stored lines double the traffic.
  const KernelCacheModel streams = all_miss_record(t.insts, 1.0);
  auto evicting = simulate(g, t.insts, ctas, 8, {}, 1, &streams);
  EXPECT_EQ(evicting.result.counters.dram_write_sectors, 2 * 4 * lines);
  EXPECT_GE(double(evicting.result.cycles), 3 * loads);
  EXPECT_NEAR(double(evicting.result.cycles), 3 * loads + latency, 0.1 * (3 * loads + latency));
  // Without rd-cache, each sector a store dirties where L2 misses is written back once.
  auto defaults = simulate(g, t.insts, ctas, 8, MemoryDefaults{0.0, 0.0}, 1);
  EXPECT_EQ(defaults.result.counters.dram_write_sectors, 4 * lines);
  EXPECT_NEAR(double(defaults.result.cycles), 2 * loads + latency, 0.1 * (2 * loads + latency));
  // A write-back L2 that does not allocate stores sends them to DRAM at once
  // and, allocating nothing for them, evicts nothing on their account.
  g.l2.write_allocate = false;
  auto bypass = simulate(g, t.insts, ctas, 8, MemoryDefaults{0.0, 0.0}, 1);
  EXPECT_EQ(bypass.result.counters.dram_write_sectors, 4 * lines);
  g.l2.write_allocate = true;
  // Write-through: every store goes on to DRAM at once, and no line is dirty.
  g.l2.write_policy = WritePolicy::WriteThrough;
  auto through = simulate(g, t.insts, ctas, 8, {}, 1, &streams);
  EXPECT_EQ(through.result.counters.dram_write_sectors, 4 * lines);
  EXPECT_NEAR(double(through.result.cycles), 2 * loads + latency, 0.1 * (2 * loads + latency));
}

TEST(Pipeline, LdstBusyCyclesCountTheAddressLatch) {
  // One load whose lanes span four 128-byte lines: four requests, the latch
  // busy four cycles; a second load of one line adds one.
  TableBuilder t;
  uint32_t wide = t.add("LDG.E", {10}, {2}, 4), narrow = t.add("LDG.E", {11}, {2}, 4);
  auto s = simulate(test_gpu(), t.insts, {make_cta({make_warp(0, t.insts, {wide, narrow}, [](uint32_t lane, uint32_t k) {
                      return 0x1000000ull + (k == 0 ? 16ull * lane : 4ull * lane + 4096);
                    })})});
  const auto& ldst = s.result.counters.units[size_t(UnitClass::Ldst)];
  EXPECT_EQ(s.result.counters.mem_requests, 5u);
  EXPECT_EQ(ldst.busy_cycles, 5u);
  EXPECT_EQ(ldst.insts, 2u);
}

TEST(Pipeline, CtaLaunchLatencyDelaysEveryCta) {
  // Three CTAs of one dependent 50-add chain, one resident at a time: each
  // starts `latency` cycles after its slot frees (the first after the start).
  TableBuilder t;
  uint32_t add = t.add("IADD3", {1}, {1, 2});
  std::vector<CtaTrace> ctas;
  for (int c = 0; c < 3; ++c) ctas.push_back(make_cta({make_warp(0, t.insts, repeat(add, 50))}));
  GpuConfig g = test_gpu();
  auto base = simulate(g, t.insts, ctas, 1);
  g.cta_launch_latency = 100;
  auto delayed = simulate(g, t.insts, ctas, 1);
  EXPECT_EQ(delayed.result.cycles, base.result.cycles + 3 * 100);
  EXPECT_EQ(delayed.result.counters.insts, base.result.counters.insts);
  // The waits are idle scheduler cycles.
  EXPECT_EQ(type_cycles(delayed.result.counters, StallType::Idle),
            type_cycles(base.result.counters, StallType::Idle) + 3 * 100 * 4);
  expect_bookkeeping(delayed.result.counters);
}

TEST(Pipeline, CtaDispatchRateBindsUntilOnlyTwoCtasFit) {
  // Empty CTAs (one EXIT per warp) on one of 100 SMs, the GPU dispatching one
  // CTA per cycle: this SM receives one every 100 cycles at most. Where eight
  // fit, a CTA's slot (its launch latency plus its EXIT) is free long before
  // the next arrives, so the dispatcher sets the pace; where two fit, each
  // slot takes a CTA per launch latency and the pace steps down to half of it.
  TableBuilder t;
  const uint32_t exit = t.add("EXIT", {}, {});
  auto empty_ctas = [&](size_t n) {
    std::vector<CtaTrace> ctas;
    for (size_t c = 0; c < n; ++c) {
      std::vector<WarpTrace> warps;
      for (uint32_t w = 0; w < 8; ++w) warps.push_back(make_warp(w, t.insts, {exit}));
      ctas.push_back(make_cta(std::move(warps), static_cast<uint32_t>(c)));
    }
    return ctas;
  };
  GpuConfig g = test_gpu();
  g.cta_dispatch_rate = 1.0;
  g.cta_launch_latency = 300;
  const unsigned sms = 100;
  auto per_cta = [&](unsigned resident) {  // the slope between 32 and 64 CTAs
    const double c32 = double(simulate(g, t.insts, empty_ctas(32), resident, {}, sms).result.cycles);
    const double c64 = double(simulate(g, t.insts, empty_ctas(64), resident, {}, sms).result.cycles);
    return (c64 - c32) / 32;
  };
  const double eight = per_cta(8), two = per_cta(2);
  EXPECT_NEAR(eight, sms / g.cta_dispatch_rate, 1.0);
  EXPECT_GE(two, g.cta_launch_latency / 2.0);
  EXPECT_LT(two, (g.cta_launch_latency + 50) / 2.0);  // an EXIT takes far less than 50 cycles
  // Without a dispatch limit the eight slots turn over at the launch latency.
  g.cta_dispatch_rate = 0;
  EXPECT_NEAR(per_cta(8), per_cta(2) / 4, per_cta(2) / 4 * 0.1);
}
