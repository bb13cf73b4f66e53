#include "cache_model.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "formats/accelsim.hpp"
#include "libcommon/diag.hpp"
#include "lru_reference.hpp"
#include "summary.hpp"

using namespace sasskit;
using namespace sasskit::rdcache;
using sasskit::rdcache::test::ExactLru;

namespace {

// The launch rules a placement on `gpu` uses.
LaunchRules rules_of(const GpuConfig& gpu) { return LaunchRules(gpu_sharing(gpu, false)); }

CacheGeometry cache(uint64_t size, unsigned assoc, unsigned latency, bool write_allocate, WritePolicy policy) {
  CacheGeometry g;
  g.size_bytes = size;
  g.assoc = assoc;
  g.latency = latency;
  g.write_allocate = write_allocate;
  g.write_policy = policy;
  return g;
}

GpuConfig small_gpu() {
  GpuConfig g;
  g.name = "test";
  g.num_sms = 3;
  g.subcores_per_sm = 4;
  g.clock_mhz = 1000;
  g.l1d = cache(4096, 4, 30, false, WritePolicy::WriteThrough);
  g.l2 = cache(32768, 8, 200, true, WritePolicy::WriteBack);
  g.dram_latency = 300;
  return g;
}

KernelSchedule round_robin(uint32_t ctas, unsigned sms) {
  KernelSchedule s;
  for (uint32_t c = 0; c < ctas; ++c) {
    s.sm.push_back(c % sms);
    s.start.push_back(c / sms);
  }
  return s;
}

StaticInst inst(uint64_t pc, const std::string& op, uint32_t width) {
  StaticInst s;
  s.pc = pc;
  s.opcode = op;
  s.mem_width = width;
  return s;
}

// A kernel whose warps load, store and share data with reuse at several
// distances: coalesced, strided and scattered lanes, partial masks.
KernelInfo kernel_info(uint32_t id, uint32_t ctas) {
  KernelInfo info;
  info.id = id;
  info.grid = {ctas, 1, 1};
  info.block = {128, 1, 1};
  info.binary_version = 70;
  return info;
}

KernelAccesses generated_kernel(uint32_t ctas, unsigned seed, const GpuConfig& gpu) {
  KernelAccesses k(kernel_info(1, ctas), gpu);
  add_insts(k, {inst(0x10, "IADD3", 0), inst(0x20, "LDG.E.SYS", 4), inst(0x30, "STG.E.SYS", 4),
                inst(0x40, "LDS", 4), inst(0x50, "LDG.E.64.SYS", 8), inst(0x60, "LDG.E.CG.SYS", 4),
                inst(0x70, "ATOMG.E.ADD.STRONG.GPU", 4)});
  std::mt19937_64 rng(seed);
  for (uint32_t c = 0; c < ctas; ++c) {
    CtaTrace cta;
    cta.kernel_id = 1;
    cta.cta = {c, 0, 0};
    for (uint32_t w = 0; w < 4; ++w) {
      WarpTrace warp;
      warp.warp_id = w;
      for (int i = 0; i < 60; ++i) {
        const uint32_t idx = static_cast<uint32_t>(rng() % k.table.size());
        const uint32_t mask = rng() % 4 == 0 ? static_cast<uint32_t>(rng()) : 0xffffffffu;
        warp.inst.push_back(idx);
        warp.mask.push_back(mask);
        if (k.table[idx].mem_width == 0) continue;
        warp.addr_mode.push_back(0);
        const uint64_t base = 0x10000 + (rng() % 96) * 128;
        const uint64_t stride = (rng() % 3 == 0) ? 128 : k.table[idx].mem_width;
        for (unsigned lane = 0; lane < 32; ++lane)
          if (mask & (1u << lane)) warp.addrs.push_back(rng() % 8 == 0 ? 0x10000 + rng() % 65536 : base + lane * stride);
      }
      cta.warps.push_back(std::move(warp));
    }
    add_cta(k, cta, "generated");
  }
  return k;
}

struct Totals {
  HitCount l1, l2;
};

// The same requests through ExactLru caches: L1 per SM, L2 over the SMs'
// L1 misses and writes merged round-robin, exactly as the model documents.
Totals reference(const KernelAccesses& k, const GpuConfig& gpu, const KernelSchedule& s, unsigned per_sm) {
  const auto order = make_access_order("round-robin");
  const OpcodeTable& ops = OpcodeTable::for_version(k.info.binary_version);
  const LineShape l2_shape{gpu.l2.line_bytes, gpu.l2.sector_bytes};
  const SetsWays l1_geom = sets_ways(gpu.l1d.size_bytes, gpu.l1d.assoc, gpu.l1d.line_bytes, "l1");
  const SetsWays l2_geom = sets_ways(gpu.l2.size_bytes, gpu.l2.assoc, gpu.l2.line_bytes, "l2");
  Totals t;
  struct Req {
    bool lookup;
    std::vector<uint64_t> sectors;
  };
  std::vector<std::vector<Req>> to_l2(gpu.num_sms);
  for (unsigned sm = 0; sm < gpu.num_sms; ++sm) {
    std::vector<uint32_t> mine;
    for (uint32_t c = 0; c < k.ctas.size(); ++c)
      if (s.sm[k.ctas[c].linear] == sm) mine.push_back(c);
    std::stable_sort(mine.begin(), mine.end(), [&](uint32_t a, uint32_t b) {
      return s.start[k.ctas[a].linear] < s.start[k.ctas[b].linear];
    });
    ExactLru l1(l1_geom.sets, l1_geom.ways);
    for (size_t g = 0; g < mine.size(); g += per_sm) {
      std::vector<CtaAccesses> group;
      for (size_t c = g; c < std::min(mine.size(), g + per_sm); ++c) group.push_back(k.ctas[mine[c]]);
      std::vector<MemRef> refs;
      order->order(group, refs);
      for (const MemRef& r : refs) {
        const WarpAccesses& w = group[r.cta].warps[r.warp];
        const StaticInst& si = k.table[w.inst[r.k]];
        const Route route = route_of(si.opcode, ops.classify(si.opcode), gpu);
        if (!route.cached) continue;
        const std::span<const LineAccess> lines(w.lines.data() + w.line_begin[r.k],
                                                w.line_begin[r.k + 1] - w.line_begin[r.k]);
        Req req{route.l2_lookup, {}};
        for (const LineAccess& l : lines) {
          uint32_t hits = 0;
          if (route.l1_lookup) {
            hits = l1.access(l.line, l.mask);
            t.l1.add(std::popcount(l.mask), std::popcount(hits));
          }
          const uint32_t out = route.l2_all ? l.mask : (route.l1_lookup ? l.mask & ~hits : 0);
          for (unsigned b = 0; b < 4; ++b)
            if (out & (1u << b)) req.sectors.push_back((l.line * 4 + b) * 32);
        }
        if (!req.sectors.empty()) to_l2[sm].push_back(std::move(req));
      }
    }
  }
  ExactLru l2(l2_geom.sets, l2_geom.ways);
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (unsigned sm = 0; sm < gpu.num_sms; ++sm) {
      if (i >= to_l2[sm].size()) continue;
      any = true;
      if (!to_l2[sm][i].lookup) continue;
      std::vector<LineAccess> lines;
      coalesce(to_l2[sm][i].sectors, 32, l2_shape, lines);
      for (const LineAccess& l : lines) t.l2.add(std::popcount(l.mask), std::popcount(l2.access(l.line, l.mask)));
    }
    if (!any) break;
  }
  return t;
}

void expect_model_matches_reference(const KernelAccesses& k, GpuConfig gpu) {
  const KernelSchedule s = round_robin(static_cast<uint32_t>(k.info.grid.volume()), gpu.num_sms);
  // Sweep points, each checked against a separate exact run.
  std::vector<SweepPoint> sweep = {{Level::L1, 2048, 2}, {Level::L1, 8192, 0}, {Level::L1, 16384, 4},
                                   {Level::L2, 8192, 4},  {Level::L2, 65536, 0}, {Level::L2, 16384, 16}};
  CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), sweep, 2);
  const KernelResult r = model.run(k, s, 2);
  const Totals ref = reference(k, gpu, s, 2);
  EXPECT_EQ(r.counts.l1.accesses, ref.l1.accesses);
  EXPECT_EQ(r.counts.l1.hits, ref.l1.hits);
  EXPECT_EQ(r.counts.l2.accesses, ref.l2.accesses);
  EXPECT_EQ(r.counts.l2.hits, ref.l2.hits);
  EXPECT_GT(ref.l2.accesses, 0u);
  ASSERT_EQ(r.sweep.size(), sweep.size());
  for (const SweepResult& p : r.sweep) {
    GpuConfig changed = gpu;
    CacheGeometry& g = p.point.level == Level::L1 ? changed.l1d : changed.l2;
    g.size_bytes = p.point.size_bytes;
    g.assoc = p.point.assoc;
    const Totals exact = reference(k, changed, s, 2);
    const HitCount& level = p.point.level == Level::L1 ? exact.l1 : exact.l2;
    EXPECT_EQ(p.accesses, level.accesses) << level_name(p.point.level) << " " << p.point.size_bytes;
    EXPECT_EQ(p.hits, level.hits) << level_name(p.point.level) << " " << p.point.size_bytes << " "
                                  << p.point.assoc;
  }
}

}  // namespace

TEST(CacheModel, MatchesExactLruOnGeneratedKernel) {
  const GpuConfig gpu = small_gpu();
  expect_model_matches_reference(generated_kernel(9, 3, gpu), gpu);
}

TEST(CacheModel, MatchesExactLruWithWriteAllocateAndFullyAssociativeL1) {
  GpuConfig gpu = small_gpu();
  gpu.l1d = cache(8192, 0, 30, true, WritePolicy::WriteThrough);
  expect_model_matches_reference(generated_kernel(7, 11, gpu), gpu);
}

TEST(CacheModel, ResultsDoNotDependOnThreads) {
  const GpuConfig gpu = small_gpu();
  const KernelAccesses k = generated_kernel(12, 5, gpu);
  const KernelSchedule s = round_robin(12, gpu.num_sms);
  CacheModel one(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
  CacheModel four(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 4);
  EXPECT_EQ(make_record(k, one.run(k, s, 2), 12, gpu), make_record(k, four.run(k, s, 2), 12, gpu));
}

TEST(CacheModel, CountsRequestsSectorsAndReuseOfOneWarp) {
  const GpuConfig gpu = small_gpu();
  KernelAccesses k(kernel_info(4, 1), gpu);
  add_insts(k, {inst(0x20, "LDG.E.SYS", 4)});
  CtaTrace cta;
  cta.kernel_id = 4;
  cta.cta = {0, 0, 0};
  WarpTrace w;
  w.inst = {0, 0};
  w.mask = {0xffffffff, 0xffffffff};
  w.addr_mode = {1, 1};
  for (int rep = 0; rep < 2; ++rep)
    for (uint64_t lane = 0; lane < 32; ++lane) w.addrs.push_back(0x4000 + 4 * lane);
  cta.warps = {w};
  add_cta(k, cta, "one warp");
  CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
  KernelResult r = model.run(k, round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.gmem_requests(), 2u);
  EXPECT_EQ(r.counts.l1.accesses, 8u);
  EXPECT_EQ(r.counts.l1.hits, 4u);
  EXPECT_EQ(r.counts.l2.accesses, 4u);
  EXPECT_EQ(r.counts.l2.hits, 0u);
  EXPECT_EQ(r.counts.dram_read_sectors, 4u);
  EXPECT_EQ(r.counts.dram_write_sectors, 0u);
  const KernelCacheModel rec = make_record(k, r, 1, gpu);
  EXPECT_EQ(rec.ctas, 1u);
  ASSERT_EQ(rec.pc, (std::vector<uint64_t>{0x20}));
  // AMAT = 30 + 0.5 * (200 + 1.0 * 300)
  EXPECT_DOUBLE_EQ(rec.amat[0], 30 + 0.5 * (200 + 300));
  // The next kernel finds the lines in L2; a copy to new addresses also fills it.
  r = model.run(k, round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.l2.hits, 4u);
}

namespace {
// Kernel `id` of one warp: instruction `op` (4 bytes a lane, so a line per
// access) at lines first, first + 1, ..., first + lines - 1, `passes` times.
KernelAccesses one_line_per_access(uint32_t id, const std::string& op, uint64_t first, uint64_t lines,
                                   const GpuConfig& gpu, int passes = 1) {
  KernelAccesses k(kernel_info(id, 1), gpu);
  add_insts(k, {inst(0x40, op, 4)});
  CtaTrace cta;
  cta.kernel_id = id;
  cta.cta = {0, 0, 0};
  WarpTrace w;
  for (int pass = 0; pass < passes; ++pass)
    for (uint64_t l = first; l < first + lines; ++l) {
      w.inst.push_back(0);
      w.mask.push_back(0xffffffff);
      w.addr_mode.push_back(1);
      for (uint64_t lane = 0; lane < 32; ++lane) w.addrs.push_back(0x100000 + 128 * l + 4 * lane);
    }
  cta.warps = {w};
  add_cta(k, cta, "lines");
  return k;
}
}  // namespace

TEST(CacheModel, StoresReachDramAsWriteBacksOfTheLinesTheyDirtied) {
  const GpuConfig gpu = small_gpu();  // L2: 256 lines of 4 sectors, write-back, write-allocate
  CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
  // 512 lines stored: no DRAM reads; the first 256 are evicted dirty.
  const KernelAccesses stores = one_line_per_access(1, "STG.E", 0, 512, gpu);
  KernelResult r = model.run(stores, round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.dram_read_sectors, 0u);
  EXPECT_EQ(r.counts.dram_write_sectors, 256u * 4);
  KernelCacheModel rec = make_record(stores, r, 1, gpu);
  EXPECT_EQ(rec.dram_sectors, 256u * 4);
  EXPECT_EQ(rec.pc_l2_sectors, (std::vector<uint64_t>{512 * 4}));
  EXPECT_EQ(rec.pc_writeback_sectors, (std::vector<uint64_t>{256 * 4}));
  EXPECT_EQ(rec.l2_bound_write_sectors, 512u * 4);  // every stored sector goes to L2
  // Loads of 256 new lines read them and evict the other 256 dirty lines.
  const KernelAccesses loads = one_line_per_access(2, "LDG.E", 1000, 256, gpu);
  r = model.run(loads, round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.dram_read_sectors, 256u * 4);
  EXPECT_EQ(r.counts.l2_bound_sectors, 256u * 4);
  EXPECT_EQ(r.counts.l2_bound_write_sectors, 0u);
  EXPECT_EQ(r.counts.dram_write_sectors, 256u * 4);
  // Those lines are clean: evicting them writes nothing back.
  r = model.run(one_line_per_access(3, "LDG.E", 2000, 256, gpu), round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.dram_write_sectors, 0u);
  // Stores that fit in L2 stay there, dirty, for the kernels after.
  r = model.run(one_line_per_access(4, "STG.E", 3000, 128, gpu), round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.dram_read_sectors + r.counts.dram_write_sectors, 0u);
}

TEST(CacheModel, AWriteThroughL2PassesEveryWrittenSectorOn) {
  GpuConfig gpu = small_gpu();
  gpu.l2.write_policy = WritePolicy::WriteThrough;
  CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
  KernelResult r = model.run(one_line_per_access(1, "STG.E", 0, 512, gpu), round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.dram_write_sectors, 512u * 4);
  EXPECT_EQ(r.counts.dram_read_sectors, 0u);
}

TEST(CacheModel, HostCopyFillsL2) {
  const GpuConfig gpu = small_gpu();
  KernelAccesses k(kernel_info(1, 1), gpu);
  add_insts(k, {inst(0x20, "LDG.E.SYS", 4)});
  CtaTrace cta;
  cta.cta = {0, 0, 0};
  WarpTrace w;
  w.inst = {0};
  w.mask = {0xffffffff};
  w.addr_mode = {1};
  for (uint64_t lane = 0; lane < 32; ++lane) w.addrs.push_back(0x9000 + 4 * lane);
  cta.warps = {w};
  add_cta(k, cta, "copy");
  CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
  model.copy_to_l2(0x9000 - 64, 400);
  const KernelResult r = model.run(k, round_robin(1, gpu.num_sms), 1);
  EXPECT_EQ(r.counts.l2.accesses, 4u);
  EXPECT_EQ(r.counts.l2.hits, 4u);
}

TEST(CacheModel, ZeroSizedCacheIsAUsageError) {
  GpuConfig gpu = small_gpu();
  gpu.l2.size_bytes = 0;
  try {
    CacheModel model(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1);
    FAIL() << "accepted a zero-sized L2";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("size 0"), std::string::npos);
  }
}

TEST(CacheModel, AddressPastTheAddressSpaceIsBadInput) {
  const GpuConfig gpu = small_gpu();
  KernelAccesses k(kernel_info(1, 1), gpu);
  add_insts(k, {inst(0x20, "LDG.E.64", 8)});
  CtaTrace cta;
  WarpTrace w;
  w.inst = {0};
  w.mask = {1};
  w.addr_mode = {0};
  w.addrs = {UINT64_MAX - 3};
  cta.cta = {0, 0, 0};
  cta.warps = {w};
  EXPECT_THROW(add_cta(k, cta, "overflow"), Error);
}

// Real traces, read from ../shared/data.
namespace {

KernelAccesses read_trace(const std::filesystem::path& file, const GpuConfig& gpu) {
  std::optional<KernelAccesses> k;
  std::ifstream in(file);
  accelsim::KernelSink sink;
  sink.kernel = [&](const KernelInfo& info) { k.emplace(info, gpu); };
  sink.insts = [&](const InstTable& t) { add_insts(*k, t.insts); };
  sink.cta = [&](const CtaTrace& c) { add_cta(*k, c, file.string()); };
  accelsim::read_kernel_trace(in, file.string(), sink);
  return std::move(*k);
}

}  // namespace

TEST(CacheModel, MatchesExactLruOnRealTraces) {
  const std::filesystem::path data = SASSKIT_SHARED_DATA;
  if (!std::filesystem::exists(data / "traces")) GTEST_SKIP() << "needs ../shared/data";
  for (const char* t : {"traces/vectoradd-sm61/kernel-1.traceg", "traces/wmma-sm70/kernel-1.traceg"}) {
    if (!std::filesystem::exists(data / t)) continue;
    SCOPED_TRACE(t);
    GpuConfig gpu = small_gpu();
    gpu.l1d = cache(1024, 2, 30, true, WritePolicy::WriteThrough);
    gpu.l2 = cache(4096, 4, 200, true, WritePolicy::WriteBack);
    const KernelAccesses k = read_trace(data / t, gpu);
    ASSERT_GT(k.lane_addresses, 0u);
    expect_model_matches_reference(k, gpu);
  }
}

namespace {

// Kernel `id` of one CTA of one warp that loads lines first .. first + lines
// - 1 (a line per access), then the same lines again.
KernelAccesses lines_twice(uint32_t id, uint64_t first, uint64_t lines, const GpuConfig& gpu) {
  return one_line_per_access(id, "LDG.E", first, lines, gpu, 2);
}

// Its one CTA on SM 0, launched at `launch`, 100 cycles long.
KernelSchedule on_sm0(uint64_t launch) {
  KernelSchedule s;
  s.sm = {0};
  s.start = {0};
  s.launch = launch;
  return s;
}

// L1 hit rates of kernels a and b, each alone, then run together with a
// launched at 0 and b at `b_launch`, each CTA 100 cycles long.
struct AloneAndTogether {
  double a_alone, b_alone, a_together, b_together;
};
AloneAndTogether l1_hit_rates(const KernelAccesses& a, const KernelAccesses& b, uint64_t b_launch) {
  const GpuConfig gpu = small_gpu();  // L1: 8 sets of 4 lines
  const KernelSchedule sa = on_sm0(0), sb = on_sm0(b_launch);
  const std::vector<uint64_t> cycles = {100};
  AloneAndTogether r{};
  r.a_alone = CacheModel(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1).run(a, sa, 1).counts.l1.rate();
  r.b_alone = CacheModel(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1).run(b, sb, 1).counts.l1.rate();
  const HeldCtas ca(a), cb(b);
  const std::vector<KernelRun> runs = {KernelRun{a, ca, sa, 1, cycles}, KernelRun{b, cb, sb, 1, cycles}};
  const std::vector<KernelResult> together = CacheModel(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1).run(runs);
  r.a_together = together[0].counts.l1.rate();
  r.b_together = together[1].counts.l1.rate();
  return r;
}

}  // namespace

TEST(CacheModel, CoResidentKernelsThatStreamThroughMoreThanL1TogetherHitLess) {
  // 24 lines each (3 a set) fit L1 alone: the second pass hits. Together,
  // interleaved, 6 lines a set: each evicts the other's before its reuse.
  const GpuConfig gpu = small_gpu();
  const KernelAccesses a = lines_twice(1, 0, 24, gpu), b = lines_twice(2, 1000, 24, gpu);
  const AloneAndTogether r = l1_hit_rates(a, b, 0);
  EXPECT_DOUBLE_EQ(r.a_alone, 0.5);
  EXPECT_DOUBLE_EQ(r.b_alone, 0.5);
  EXPECT_LT(r.a_together, r.a_alone);
  EXPECT_LT(r.b_together, r.b_alone);
  // b launched after a's CTA has ended finds L1 as a left it, but runs alone.
  const AloneAndTogether after = l1_hit_rates(a, b, 100);
  EXPECT_DOUBLE_EQ(after.a_together, 0.5);
  EXPECT_DOUBLE_EQ(after.b_together, 0.5);
}

TEST(CacheModel, CoResidentKernelsSharingTheirDataHitMore) {
  // The same 24 lines: b's first pass finds a's lines (a's second pass, b's).
  const GpuConfig gpu = small_gpu();
  const KernelAccesses a = lines_twice(1, 0, 24, gpu), b = lines_twice(2, 0, 24, gpu);
  const AloneAndTogether r = l1_hit_rates(a, b, 0);
  EXPECT_DOUBLE_EQ(r.a_alone, 0.5);
  EXPECT_DOUBLE_EQ(r.b_together, 1.0);  // a loads each line just before b
  EXPECT_GT(r.a_together + r.b_together, r.a_alone + r.b_alone);
}

TEST(CacheModel, APlacedCtaRunsFromTheEndOfItsLaunchLatencyToTheEndOfItsSlot) {
  GpuConfig gpu = small_gpu();
  gpu.cta_launch_latency = 50;
  KernelSchedule s = on_sm0(1000);
  s.start = {20};
  const std::vector<uint64_t> cycles = {100};
  const LaunchRules::CtaRun run = placed_run(rules_of(gpu), s, cycles, 0);
  EXPECT_EQ(run.begin, 1070u);
  EXPECT_EQ(run.end, 1170u);
  EXPECT_EQ(run.end - (s.launch + s.start[0]), rules_of(gpu).slot_cycles(100));  // the slot the scheduler held
  EXPECT_EQ(placed_run(rules_of(gpu), s, {}, 0).end, 1071u);  // no prediction: one cycle
}

TEST(CacheModel, OneKernelRunJointlyGivesItsResultAlone) {
  const GpuConfig gpu = small_gpu();
  const KernelAccesses k = generated_kernel(12, 9, gpu);
  const KernelSchedule s = round_robin(12, gpu.num_sms);
  const KernelResult alone = CacheModel(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1).run(k, s, 2);
  const HeldCtas ctas(k);
  const std::vector<uint64_t> cycles(12, 7);
  const std::vector<KernelRun> runs = {KernelRun{k, ctas, s, 2, cycles}};
  const std::vector<KernelResult> joint = CacheModel(gpu, rules_of(gpu), make_access_order("round-robin"), {}, 1).run(runs);
  ASSERT_EQ(joint.size(), 1u);
  EXPECT_EQ(make_record(k, joint[0], 12, gpu), make_record(k, alone, 12, gpu));
}
