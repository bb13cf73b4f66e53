// The SM's components: the warp table's cached state never goes stale, on
// any model and policy, and each warp-scheduling policy is reachable from
// the GPU model and orders issue as it claims (two-level: one fetch group
// at a time, Narasiman et al., MICRO 2011).
#include <gtest/gtest.h>

#include "bench/pipe-sim/generated_workload.hpp"
#include "micro.hpp"
#include "simulate.hpp"
#include "tests/support/gpu_models.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

const SchedulerPolicy kPolicies[] = {SchedulerPolicy::Gto, SchedulerPolicy::Lrr, SchedulerPolicy::TwoLevel};

Workload barriers_divergence_and_memory(uint32_t binary_version) {
  gen::GenOptions g;
  for (const char* k : {"gemm", "reduce", "stencil", "gather"}) g.kernels.push_back(gen::parse_kernel_kind(k));
  if (binary_version >= 70) g.kernels.push_back(gen::KernelKind::Tensor);
  g.params.size = 2048;
  g.params.imbalance = 3;
  g.binary_version = binary_version;
  return generated_workload(g);
}

// Sixteen warps on one scheduler: warps 0-7 (the first fetch group) run
// `n` independent adds at PCs of their own, warps 8-15 the same at other
// PCs. Returns, for each issue in cycle order, whether the second group
// issued it.
std::vector<bool> issue_order_by_group(SchedulerPolicy policy, size_t n) {
  GpuConfig g = test_gpu();
  g.subcores_per_sm = 1;
  g.max_warps_per_sm = 16;
  g.scheduler = policy;
  TableBuilder t;
  std::vector<uint32_t> first, second;
  for (uint16_t r = 0; r < n; ++r) first.push_back(t.add("FADD", {uint16_t(10 + r % 100)}, {2, 3}));
  for (uint16_t r = 0; r < n; ++r) second.push_back(t.add("FADD", {uint16_t(10 + r % 100)}, {2, 3}));
  const uint64_t second_pc = t.insts[second.front()].pc;
  std::vector<WarpTrace> warps;
  for (uint32_t w = 0; w < 16; ++w) warps.push_back(make_warp(w, t.insts, w < 8 ? first : second));
  const std::vector<CtaTrace> ctas{make_cta(warps)};
  SimOptions opt;
  opt.gpu = g;
  opt.trace_stalls = true;
  opt.check_warp_table = true;
  KernelProgram program = build_program(1, t.insts, 0x100000, classify, nullptr, {});
  const SmWork work{0, {0}, {.held = &ctas}};
  SmResult r = SmSim(opt, program, work).run();
  EXPECT_EQ(r.counters.insts, 16 * n);
  std::vector<bool> order;
  for (const StallTraceRow& row : r.trace)
    if (row.issued) order.push_back(row.pc >= second_pc);
  return order;
}

// The first cycle at which an instruction at `pc` issued (kNever: none).
uint64_t first_issue(const SmResult& r, uint64_t pc) {
  for (const StallTraceRow& row : r.trace)
    if (row.issued && row.pc == pc) return row.cycle;
  return kNever;
}

size_t second_group_issues(const std::vector<bool>& order, size_t first) {
  size_t n = 0;
  for (size_t i = 0; i < first && i < order.size(); ++i) n += order[i];
  return n;
}

}  // namespace

TEST(WarpTable, CachedStateMatchesARecomputationEveryCycle) {
  struct Model {
    const char* config;
    uint32_t binary_version;
  };
  for (Model m : {Model{"qv100", 70}, Model{"gtx1080", 61}, Model{"rtx3070", 86}}) {
    Workload w = barriers_divergence_and_memory(m.binary_version);
    for (SchedulerPolicy p : kPolicies) {
      RunOptions o;
      o.sim.gpu = sasskit::test::bundled(m.config);
      o.sim.gpu.scheduler = p;
      o.sim.check_warp_table = true;
      std::vector<KernelResult> results;
      ASSERT_NO_THROW(results = simulate_workload(w, o, opcode_table_classifier)) << m.config << " " << scheduler_name(p);
      for (const KernelResult& k : results) EXPECT_GT(k.stats.total.insts, 0u) << m.config << " " << scheduler_name(p);
    }
  }
}

// A CTA's barrier opens only its own warps, even where one of its warps
// exited early and a later CTA's warp took that warp's slot.
TEST(WarpTable, ABarrierReleasesOnlyItsOwnCtasWarps) {
  TableBuilder t;
  uint32_t exit_early = t.add("IADD3", {1}, {2, 3});
  uint32_t chain = t.add("IADD3", {4}, {4, 5});
  uint32_t a_bar = t.add("BAR.SYNC", {}, {});
  uint32_t c_bar_first = t.add("BAR.SYNC", {}, {});
  uint32_t c_tail = t.add("IADD3", {6}, {2, 3});
  uint32_t c_bar_last = t.add("BAR.SYNC", {}, {});
  auto run = [&](std::vector<uint32_t> seq) { return make_warp(0, t.insts, seq); };
  std::vector<uint32_t> a_slow(40, chain), c_slow(100, chain);
  a_slow.insert(a_slow.end(), {a_bar, exit_early});
  c_slow.insert(c_slow.end(), {c_bar_last, c_tail});
  // A: one warp exits at once, the other waits at a barrier after 40 adds.
  // B: one short warp; when it ends, C takes its CTA slot and the slot of
  // A's exited warp. C: that warp waits at its barrier at once, the other
  // arrives after 100 adds.
  const std::vector<CtaTrace> ctas{make_cta({run({exit_early}), run(a_slow)}, 0),
                                   make_cta({run(std::vector<uint32_t>(8, exit_early))}, 1),
                                   make_cta({run({c_bar_first, c_tail}), run(c_slow)}, 2)};
  SimOptions opt;
  opt.gpu = test_gpu();
  opt.ctas_per_sm = 2;
  opt.trace_stalls = true;
  opt.check_warp_table = true;
  KernelProgram program = build_program(1, t.insts, 0x100000, classify, nullptr, {});
  const SmWork work{0, {0, 1, 2}, {.held = &ctas}};
  SmResult r = SmSim(opt, program, work).run();
  ASSERT_EQ(r.counters.ctas, 3u);
  uint64_t c_released = first_issue(r, t.insts[c_bar_last].pc);
  ASSERT_NE(c_released, kNever);
  EXPECT_GT(first_issue(r, t.insts[c_tail].pc), c_released);
}

TEST(IssuePolicy, EveryPolicyOfTheModelHasAnImplementation) {
  for (SchedulerPolicy p : kPolicies) EXPECT_NE(make_issue_policy(p, true), nullptr) << scheduler_name(p);
}

TEST(IssuePolicy, TwoLevelKeepsToOneFetchGroupWhileItCanIssue) {
  const size_t n = 64;
  const size_t half = 8 * n;  // the issues of one group
  std::vector<bool> lrr = issue_order_by_group(SchedulerPolicy::Lrr, n);
  std::vector<bool> two_level = issue_order_by_group(SchedulerPolicy::TwoLevel, n);
  ASSERT_EQ(lrr.size(), 16 * n);
  ASSERT_EQ(two_level.size(), 16 * n);
  // Round robin over all sixteen warps: about half of the first group's
  // worth of issues go to the second group.
  EXPECT_GT(second_group_issues(lrr, half), half * 4 / 10);
  // Two-level: the first group runs to its end while it can issue; the
  // second group fills only the cycles in which it cannot.
  EXPECT_LT(second_group_issues(two_level, half), half / 10);
}
