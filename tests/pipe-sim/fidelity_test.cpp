// Front end, issue rules and memory-pipeline details, each checked against
// the cycles it should cost.
#include <gtest/gtest.h>

#include "micro.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

const SimCounters& counters(const Simulated& s) { return s.result.counters; }
uint64_t event(const Simulated& s, StallEvent e) { return counters(s).stall_event[size_t(e)]; }

}  // namespace

TEST(Fidelity, ConsecutiveIssuesToOneUnitAreExcluded) {
  TableBuilder t;
  std::vector<uint32_t> same, mixed;
  for (uint16_t r = 0; r < 8; ++r) {
    same.push_back(t.add("IADD3", {uint16_t(10 + r)}, {0, 1}));
    mixed.push_back(same.back());
    mixed.push_back(t.add("FFMA", {uint16_t(30 + r)}, {0, 1}));
  }
  std::vector<uint32_t> a, b;
  for (int i = 0; i < 25; ++i) {
    a.insert(a.end(), same.begin(), same.end());
    a.insert(a.end(), same.begin(), same.end());
    b.insert(b.end(), mixed.begin(), mixed.end());
  }
  GpuConfig two_pipes = test_gpu();  // INT and FP32: two 16-lane pipelines each (Volta)
  for (UnitClass u : {UnitClass::Int, UnitClass::Sp}) two_pipes.units[size_t(u)] = ExecUnit{2, 4, 2};
  auto one_unit = simulate(two_pipes, t.insts, {make_cta({make_warp(0, t.insts, a)})});
  auto two_units = simulate(two_pipes, t.insts, {make_cta({make_warp(0, t.insts, b)})});
  // 400 instructions: every other cycle on one unit, every cycle on two (5%).
  EXPECT_NEAR(double(one_unit.result.cycles), 800, 40);
  EXPECT_NEAR(double(two_units.result.cycles), 400, 20);
  EXPECT_GT(event(one_unit, StallEvent::IssueExclusion), 350u);
  // A unit as wide as the warp (interval 1: Pascal's FP32/INT32) takes one
  // instruction every cycle.
  auto warp_wide = simulate(test_gpu(), t.insts, {make_cta({make_warp(0, t.insts, a)})});
  EXPECT_NEAR(double(warp_wide.result.cycles), 400, 20);
  EXPECT_EQ(event(warp_wide, StallEvent::IssueExclusion), 0u);
}

TEST(Fidelity, SlowUnitSaturates) {
  // SFU: interval 4, so independent MUFUs issue every 4 cycles.
  TableBuilder t;
  std::vector<uint32_t> seq;
  for (uint16_t r = 0; r < 100; ++r) seq.push_back(t.add("MUFU.RCP", {uint16_t(10 + r % 32)}, {0}));
  auto s = simulate(test_gpu(), t.insts, {make_cta({make_warp(0, t.insts, seq)})});
  EXPECT_NEAR(double(s.result.cycles), 400, 40);
  EXPECT_GT(counters(s).stall_type[size_t(StallType::ComStruct)], 250u);
  EXPECT_EQ(counters(s).units[size_t(UnitClass::Sfu)].busy_cycles, 400u);
}

TEST(Fidelity, ColdInstructionLinesComeFromDram) {
  GpuConfig g = test_gpu();
  g.l0i = CacheGeometry{1024, 128, 128, 4, 1};
  g.l1i = CacheGeometry{8192, 128, 128, 4, 10};
  TableBuilder t;
  std::vector<uint32_t> straight;  // 64 instructions = 8 lines, run once
  for (uint16_t r = 0; r < 64; ++r) straight.push_back(t.add(r % 2 ? "FFMA" : "IADD3", {uint16_t(10 + r % 16)}, {0}));
  auto cold = simulate(g, t.insts, {make_cta({make_warp(0, t.insts, straight)})});
  EXPECT_EQ(counters(cold).l1i.misses, 8u);
  EXPECT_EQ(counters(cold).l0i.misses, 8u);
  // Each line: L1 miss = L1 latency + L2 latency + DRAM, nothing to hide it (10%).
  double expected = 8.0 * (g.l1i.latency + g.l2.latency + g.dram_latency);
  EXPECT_NEAR(double(cold.result.cycles), expected, expected * 0.1);
  EXPECT_GT(counters(cold).stall_type[size_t(StallType::Ctrl)], uint64_t(expected * 0.9));

  // The same code twice over: the second pass hits in L0.
  std::vector<uint32_t> twice = straight;
  twice.insert(twice.end(), straight.begin(), straight.end());
  auto warm = simulate(g, t.insts, {make_cta({make_warp(0, t.insts, twice)})});
  EXPECT_EQ(counters(warm).l0i.misses, 8u);
  EXPECT_LT(warm.result.cycles, cold.result.cycles + 100);

  // With room for one line in each instruction cache the second pass misses
  // again, but the lines are in L2 now: an L2 round trip each, no DRAM.
  g.l0i = CacheGeometry{128, 128, 128, 1, 1};
  g.l1i = CacheGeometry{128, 128, 128, 1, 10};
  auto evicted = simulate(g, t.insts, {make_cta({make_warp(0, t.insts, twice)})});
  EXPECT_EQ(counters(evicted).l1i.misses, 16u);
  double second_pass = 8.0 * (g.l1i.latency + g.l2.latency);
  EXPECT_NEAR(double(evicted.result.cycles), expected + second_pass, (expected + second_pass) * 0.1);
}

TEST(Fidelity, ALineInFlightMakesEverySubCoreWait) {
  GpuConfig g = test_gpu();
  g.l0i = CacheGeometry{1024, 128, 128, 4, 1};
  g.l1i = CacheGeometry{8192, 128, 128, 4, 10};
  TableBuilder t;
  std::vector<uint32_t> one_line;  // 8 independent instructions = one line
  for (uint16_t r = 0; r < 8; ++r) one_line.push_back(t.add("IADD3", {uint16_t(10 + r)}, {0}));
  // Four warps on four sub-cores fetch the same cold line: the first misses
  // in L1, the others find it there while it is still coming from DRAM and
  // must wait for it too, so every sub-core idles about one fill.
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 4; ++w) warps.push_back(make_warp(w, t.insts, one_line));
  auto run = simulate(g, t.insts, {make_cta(std::move(warps))});
  EXPECT_EQ(counters(run).l1i.misses, 1u);
  double fill = g.l1i.latency + g.l2.latency + g.dram_latency;
  EXPECT_GT(counters(run).stall_type[size_t(StallType::Ctrl)], uint64_t(4 * fill * 0.95));
}

TEST(Fidelity, InstructionPrefetchHidesStraightLineFetch) {
  GpuConfig g = test_gpu();
  g.l0i = CacheGeometry{16384, 128, 128, 4, 1};
  g.l1i = CacheGeometry{65536, 128, 128, 4, 10};
  TableBuilder t;
  std::vector<uint32_t> chain;  // 512 dependent IADD3s = 64 lines of straight-line code, run once
  for (int i = 0; i < 512; ++i) chain.push_back(t.add("IADD3", {10}, {10, 0}));
  auto run = [&](unsigned lines) {
    g.inst_prefetch_lines = lines;
    return simulate(g, t.insts, {make_cta({make_warp(0, t.insts, chain)})});
  };
  auto demand = run(0), streamed = run(16);
  double round_trip = g.l1i.latency + g.l2.latency, chain_cycles = 512.0 * g.unit(UnitClass::Int).latency;
  // Without prefetch every line costs a round trip; with 16 lines in flight
  // a line (8 instructions, 32 cycles) arrives long before it is needed, so
  // only the first round trip shows.
  EXPECT_GT(double(demand.result.cycles), 64 * round_trip);
  EXPECT_LT(double(streamed.result.cycles), chain_cycles + 2 * round_trip);
  EXPECT_EQ(counters(streamed).l1i.misses, 64u + 16);  // the stream runs 16 lines past the end
}

TEST(Fidelity, WithoutL0TheL1InstructionCachePrefetchesTheNextLine) {
  GpuConfig g = test_gpu();  // Pascal-like front end: one instruction cache per SM
  g.has_l0i = false;
  g.l1i = CacheGeometry{8192, 128, 128, 4, 1};  // each fetch reads L1: a 1-cycle hit
  TableBuilder t;
  std::vector<uint32_t> two_lines;  // 16 independent instructions = two lines, run once
  for (uint16_t r = 0; r < 16; ++r) two_lines.push_back(t.add("IADD3", {uint16_t(10 + r)}, {0}));
  auto run = [&](unsigned lines) {
    g.inst_prefetch_lines = lines;
    return simulate(g, t.insts, {make_cta({make_warp(0, t.insts, two_lines)})});
  };
  auto demand = run(0), next_line = run(1);
  double fill = g.l1i.latency + g.l2.latency + g.dram_latency;
  // On demand the second line is requested when the first has run: two fills
  // in turn. Requested with the first, it is there when the first has run.
  EXPECT_GT(double(demand.result.cycles), 2 * fill);
  EXPECT_LT(double(next_line.result.cycles), 1.2 * fill);
  EXPECT_EQ(counters(next_line).l1i.misses, 2u);
}

TEST(Fidelity, PascalEightByteInstructionsAreFetchedTogether) {
  GpuConfig g = test_gpu();  // one L1 instruction cache per SM, no L0
  g.has_l0i = false;
  g.l1i = CacheGeometry{8192, 128, 128, 4, 0};  // as on gtx1080
  TableBuilder t;
  std::vector<uint32_t> body;  // 48 independent instructions
  for (uint16_t r = 0; r < 48; ++r) body.push_back(t.add(r % 2 ? "FFMA" : "IADD3", {uint16_t(10 + r % 16)}, {0}));
  // Pascal's encoding: 8-byte instructions, every fourth 8-byte slot a
  // control word (PCs 8, 16, 24, 40, ...).
  for (size_t i = 0; i < t.insts.size(); ++i) t.insts[i].pc = 8 * (i + i / 3 + 1);
  auto run = [&](int passes) {
    std::vector<uint32_t> seq;
    for (int p = 0; p < passes; ++p) seq.insert(seq.end(), body.begin(), body.end());
    std::vector<WarpTrace> warps;  // four warps on each of the four sub-cores
    for (uint32_t w = 0; w < 16; ++w) warps.push_back(make_warp(w, t.insts, seq));
    return double(simulate(g, t.insts, {make_cta(std::move(warps))}).result.cycles);
  };
  // Warm code: the SM's one instruction cache serves one fetch a cycle, of up
  // to fetch_width (2) consecutive instructions, so the SM runs two
  // instructions a cycle (10%); fetched one at a time, it would run one.
  double per_cycle = 16 * 20.0 * 48 / (run(40) - run(20));
  EXPECT_NEAR(per_cycle, 2.0, 0.2);
}

TEST(Fidelity, SharedMemoryBankConflictsSerialise) {
  TableBuilder t;
  uint32_t lds = t.add("LDS", {4}, {4}, 4);
  uint32_t add = t.add("IADD3", {4}, {4, 5});
  std::vector<uint32_t> seq;
  for (int i = 0; i < 20; ++i) seq.insert(seq.end(), {lds, add});
  auto stride = [&](uint64_t words) {
    return make_warp(0, t.insts, seq, [=](uint32_t lane, uint32_t) { return 4 * words * lane; });
  };
  auto clean = simulate(test_gpu(), t.insts, {make_cta({stride(1)})});
  auto conflict = simulate(test_gpu(), t.insts, {make_cta({stride(32)})});  // all lanes in bank 0
  EXPECT_EQ(counters(clean).smem_conflict_cycles, 0u);
  EXPECT_EQ(counters(conflict).smem_conflict_cycles, 20u * 31);
  // 31 extra wavefronts per load on a dependent chain (5%).
  EXPECT_NEAR(double(conflict.result.cycles - clean.result.cycles), 20.0 * 31, 20.0 * 31 * 0.05);
}

// An LDS.128 moves 512 bytes: 4 wavefronts of 128, none of them a bank
// conflict when the lanes read consecutive 16-byte words (Nsight Compute
// counts conflicts beyond that minimum); lanes 128 bytes apart all hit the
// same four banks: 32 wavefronts, 28 of them conflicts.
TEST(Fidelity, WideSharedLoadsCountOnlyTheWavefrontsBeyondTheirWidthAsConflicts) {
  TableBuilder t;
  uint32_t lds = t.add("LDS.U.128", {4}, {4}, 16);
  std::vector<uint32_t> seq(10, lds);
  auto stride = [&](uint64_t bytes) {
    return make_warp(0, t.insts, seq, [=](uint32_t lane, uint32_t) { return bytes * lane; });
  };
  auto clean = simulate(test_gpu(), t.insts, {make_cta({stride(16)})});
  auto conflict = simulate(test_gpu(), t.insts, {make_cta({stride(128)})});
  EXPECT_EQ(counters(clean).smem_conflict_cycles, 0u);
  EXPECT_EQ(counters(conflict).smem_conflict_cycles, 10u * 28);
  EXPECT_GT(conflict.result.cycles, clean.result.cycles);
}

// 32 warps (8 per sub-core) of independent loads, each warp's k-th access
// at addr_of(warp, lane, k).
template <class AddrFn>
Simulated independent_loads(const char* op, uint32_t width, int per_warp, MemoryDefaults mem, AddrFn addr_of,
                            const GpuConfig& gpu = test_gpu()) {
  TableBuilder t;
  std::vector<uint32_t> seq;
  for (int i = 0; i < per_warp; ++i) seq.push_back(t.add(op, {uint16_t(8 + 4 * (i % 8))}, {2}, width));
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 32; ++w)
    warps.push_back(make_warp(w, t.insts, seq, [=](uint32_t lane, uint32_t k) { return addr_of(w, lane, k); }));
  return simulate(gpu, t.insts, {make_cta(warps)}, 8, mem);
}

TEST(Fidelity, SharedMemoryDeliversAtMostItsBanksPerCycle) {
  // 32 warps x 64 conflict-free LDS: 2048 wavefronts of 32 banks x 4 bytes,
  // one per cycle for the whole SM however many sub-cores ask.
  auto s = independent_loads("LDS", 4, 64, {}, [](uint32_t w, uint32_t lane, uint32_t k) {
    return uint64_t(4) * lane + 128ull * ((w * 64 + k) % 256);
  });
  EXPECT_EQ(counters(s).smem_conflict_cycles, 0u);
  EXPECT_GE(s.result.cycles, 2048u);
  EXPECT_LT(double(s.result.cycles), 2048 * 1.1);
}

TEST(Fidelity, L1HitsDeliverAtMostALinePerCycle) {
  // 32 warps x 16 LDG.128 hitting L1: 4 lines each, 2048 lines through the
  // SM's 128-byte-per-cycle data array.
  auto s = independent_loads("LDG.E.128", 16, 16, MemoryDefaults{1, 1}, [](uint32_t w, uint32_t lane, uint32_t k) {
    return 0x1000000ull + 16 * lane + 512ull * ((w + k) % 16);
  });
  EXPECT_EQ(counters(s).mem_requests, 2048u);
  EXPECT_EQ(counters(s).l1d_misses, 0u);
  EXPECT_GE(s.result.cycles, 2048u);
  EXPECT_LT(double(s.result.cycles), 2048 * 1.1);
}

TEST(Fidelity, OneSmMovesAtMostItsPortPerCycle) {
  // A lone SM, so the whole L2 share is its own: 32 warps x 16 LDG.128 that miss
  // L1 and hit L2, 2048 lines of 4 sectors. A 32-byte port takes 8192 cycles
  // for them; without a port value the SM moves a line a cycle (2048).
  GpuConfig g = test_gpu();
  g.noc_bytes_per_cycle = 4096;
  auto lines = [](uint32_t w, uint32_t lane, uint32_t k) { return 0x1000000ull + 16 * lane + 512ull * (16 * w + k); };
  g.noc_port_bytes_per_cycle = 32;
  auto port = independent_loads("LDG.E.128", 16, 16, MemoryDefaults{0, 1}, lines, g);
  g.noc_port_bytes_per_cycle = 0;
  auto line_a_cycle = independent_loads("LDG.E.128", 16, 16, MemoryDefaults{0, 1}, lines, g);
  EXPECT_EQ(counters(port).l1d_misses, 2048u);
  EXPECT_GE(port.result.cycles, 8192u);
  EXPECT_LT(double(port.result.cycles), 8192 * 1.1);
  EXPECT_GT(event(port, StallEvent::Interconnect), 0u);
  EXPECT_GE(line_a_cycle.result.cycles, 2048u);
  EXPECT_LT(double(line_a_cycle.result.cycles), 2048 * 1.25);
}

TEST(Fidelity, MshrLimitQueuesMisses) {
  GpuConfig g = test_gpu();
  g.l1d.mshrs = 2;
  TableBuilder t;
  uint32_t ld = t.add("LDG.E", {4}, {2}, 4);
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 16; ++w) warps.push_back(make_warp(w, t.insts, {ld}, [=](uint32_t lane, uint32_t) {
    return 0x1000000ull + 128ull * w + 4 * lane;
  }));
  auto limited = simulate(g, t.insts, {make_cta(warps)}, 8, MemoryDefaults{0, 1});
  g.l1d.mshrs = 0;
  auto free = simulate(g, t.insts, {make_cta(warps)}, 8, MemoryDefaults{0, 1});
  // 16 misses, two at a time: eight round trips instead of one (10%).
  double trip = g.l2.latency;
  EXPECT_NEAR(double(limited.result.cycles), 8 * trip, 8 * trip * 0.1);
  EXPECT_NEAR(double(free.result.cycles), trip, trip * 0.15);
  EXPECT_GT(event(limited, StallEvent::Interconnect) + event(limited, StallEvent::DispatchQueue) +
                counters(limited).stall_type[size_t(StallType::MemStruct)], 0u);
}

TEST(Fidelity, LrrAndGtoBothRunEverything) {
  TableBuilder t;
  uint32_t ld = t.add("LDG.E", {4}, {2}, 4);
  uint32_t fma = t.add("FFMA", {6}, {4, 6});
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 16; ++w) warps.push_back(make_warp(w, t.insts, {ld, fma, ld, fma, fma}));
  GpuConfig g = test_gpu();
  auto gto = simulate(g, t.insts, {make_cta(warps)});
  g.scheduler = SchedulerPolicy::Lrr;
  auto lrr = simulate(g, t.insts, {make_cta(warps)});
  EXPECT_EQ(counters(gto).insts, 80u);
  EXPECT_EQ(counters(lrr).insts, 80u);
  EXPECT_EQ(counters(lrr).insts + counters(lrr).stall_cycles(), counters(lrr).sched_cycles);
}
