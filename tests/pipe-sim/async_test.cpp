// Hopper's asynchronous instructions (pipe-sim(1), Asynchronous
// instructions): a warpgroup MMA holds the tensor unit for its shape's work
// and is waited for at WARPGROUP.DEPBAR, not by the next reader of its
// registers; a bulk copy completes an mbarrier phase that SYNCS.PHASECHK
// waits for, so copies of one stage overlap the MMAs of another.
#include <gtest/gtest.h>

#include "micro.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

// The test GPU with a tensor unit of H100's shape: 2048 FMAs every 4 cycles,
// latency 32.
GpuConfig hopper_like_gpu() {
  GpuConfig g = test_gpu();
  g.units[size_t(UnitClass::Tensor)] = ExecUnit{1, 32, 4};
  return g;
}

// The sm_90 table's flags for the opcodes these tests use, the rest as the
// test classifier has them.
OpcodeInfo classify_sm90(std::string_view op) {
  auto starts = [&](std::string_view p) { return op.substr(0, p.size()) == p; };
  OpcodeInfo i;
  if (starts("HGMMA")) {
    i.unit = UnitClass::Tensor;
    i.is_async = true;
  } else if (starts("WARPGROUP.DEPBAR")) {
    i.unit = UnitClass::Branch;
    i.is_mma_wait = true;
  } else if (starts("UTMALDG")) {
    i.unit = UnitClass::Ldst;
    i.space = MemSpace::Global;
    i.is_load = i.is_async = true;
  } else if (starts("SYNCS.ARRIVE.TRANS64")) {
    i.unit = UnitClass::Ldst;
    i.space = MemSpace::Shared;
    i.is_copy_group = true;
  } else if (starts("SYNCS.PHASECHK.TRANS64")) {
    i.unit = UnitClass::Ldst;
    i.space = MemSpace::Shared;
    i.is_copy_wait = true;
  } else {
    i = classify(op);
  }
  return i;
}

// One warp's trace: each entry a table index and, for a memory instruction,
// the one lane (lane 0) that accesses `addr`.
struct WarpBuilder {
  const std::vector<StaticInst>& table;
  WarpTrace w;
  WarpBuilder& run(uint32_t inst, size_t times = 1) {
    for (size_t k = 0; k < times; ++k) {
      w.inst.push_back(inst);
      const bool mem = table[inst].mem_width > 0;
      w.mask.push_back(mem ? 1u : 0xffffffffu);
      if (mem) {
        w.addr_mode.push_back(0);
        w.addrs.push_back(next_addr);
        next_addr += table[inst].mem_width;
      }
    }
    return *this;
  }
  uint64_t next_addr = 0x10000000;
};

uint64_t cycles(const std::vector<StaticInst>& table, std::vector<WarpTrace> warps) {
  SimOptions opt;
  opt.gpu = hopper_like_gpu();
  opt.check_warp_table = true;  // the heads that depend on other warps stay current
  KernelProgram program = build_program(1, table, 0x100000, classify_sm90, nullptr, {.l1_hit = 0, .l2_hit = 1});
  std::vector<CtaTrace> ctas{make_cta(std::move(warps))};
  SmWork work{.ctas = {0}, .source = {.held = &ctas}};
  return SmSim(opt, program, work).run().cycles;
}

}  // namespace

TEST(AsyncMma, HoldsTheTensorUnitForItsShape) {
  // Eight HGMMA.64x256x16: 256/8 intervals of 4 cycles each, 128 cycles, back to back.
  TableBuilder t;
  uint32_t mma = t.add("HGMMA.64x256x16.F32", {24}, {24});
  uint32_t wait = t.add("WARPGROUP.DEPBAR.LE", {}, {});
  uint32_t exit = t.add("EXIT", {}, {});
  WarpBuilder w{t.insts};
  w.run(mma, 8).run(wait).run(exit);
  uint64_t c = cycles(t.insts, {w.w});
  EXPECT_GE(c, 8u * 128 + 32);
  EXPECT_LE(c, 8u * 128 + 32 + 30);
}

TEST(AsyncMma, NextReaderOfItsRegistersDoesNotWaitButDepbarDoes) {
  TableBuilder t;
  uint32_t mma = t.add("HGMMA.64x128x16.F32", {24}, {24});  // 64 cycles of work, then 32
  uint32_t add = t.add("IADD3", {24}, {24, 2});
  uint32_t wait = t.add("WARPGROUP.DEPBAR.LE", {}, {});
  uint32_t exit = t.add("EXIT", {}, {});
  // 30 dependent IADD3s (120 cycles) after the MMA: they run beside it...
  WarpBuilder overlapped{t.insts};
  overlapped.run(mma).run(add, 30).run(wait).run(exit);
  // ... unless the DEPBAR comes first.
  WarpBuilder waited{t.insts};
  waited.run(mma).run(wait).run(add, 30).run(exit);
  uint64_t beside = cycles(t.insts, {overlapped.w}), after = cycles(t.insts, {waited.w});
  EXPECT_LE(beside, 120u + 30);
  EXPECT_GE(after, 64u + 32 + 120);
}

namespace {

// A producer warp (one lane copies `boxes` 8 KB boxes after its arrive) and a
// consumer warp that waits for the phase, then runs `work` dependent IADD3s.
struct CopyKernel {
  TableBuilder t;
  uint32_t arrive = t.add("SYNCS.ARRIVE.TRANS64.A1T0", {}, {}, 8);
  uint32_t copy = t.add("UTMALDG.2D", {}, {}, 8192);
  uint32_t wait = t.add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {}, {}, 8);
  uint32_t add = t.add("IADD3", {1}, {1, 2});
  uint32_t exit = t.add("EXIT", {}, {});
};

}  // namespace

TEST(AsyncCopy, TheWaitPassesWhenThePhasesCopiesAreDone) {
  CopyKernel k;
  WarpBuilder producer{k.t.insts}, consumer{k.t.insts};
  producer.run(k.arrive).run(k.copy, 2).run(k.exit);
  consumer.run(k.wait).run(k.add, 50).run(k.exit);
  // Two boxes of 64 lines each leave at a line per cycle and hit L2 (200
  // cycles): the consumer's 200 cycles of work start after about 330.
  uint64_t c = cycles(k.t.insts, {producer.w, consumer.w});
  EXPECT_GE(c, 128u + 200 + 200);
  EXPECT_LE(c, 128u + 200 + 200 + 60);
}

TEST(AsyncCopy, EachWaitTakesTheNextPhase) {
  // Phase 0 is one box, phase 1 sixteen: the consumer's first wait passes
  // after phase 0 and its work overlaps phase 1's copies; the second waits
  // for phase 1.
  CopyKernel k;
  WarpBuilder producer{k.t.insts}, consumer{k.t.insts};
  producer.run(k.arrive).run(k.copy).run(k.add).run(k.arrive).run(k.copy, 16).run(k.exit);
  consumer.run(k.wait).run(k.add, 100).run(k.wait).run(k.exit);
  uint64_t c = cycles(k.t.insts, {producer.w, consumer.w});
  // Phase 1 ends after about 17 x 64 + 200 cycles, later than phase 0 (about
  // 264) plus the 400 cycles of work, so the kernel ends with it, not after
  // their sum (about 1,700).
  EXPECT_GE(c, 17u * 64 + 200);
  EXPECT_LE(c, 17u * 64 + 200 + 80);
}

TEST(AsyncCopy, AWaitNoWarpCanSatisfyPasses) {
  // No copy at all, and no other warp that could start a phase: the trace
  // shows the wait passed, so it does not hold the warp forever.
  CopyKernel k;
  WarpBuilder a{k.t.insts}, b{k.t.insts};
  a.run(k.wait).run(k.add, 10).run(k.exit);
  b.run(k.add, 20).run(k.wait).run(k.exit);
  uint64_t c = cycles(k.t.insts, {a.w, b.w});
  EXPECT_LE(c, 300u);
}

TEST(AsyncCopy, AWarpAtABarrierStartsNoPhase) {
  // Warp b waits at a barrier that warp a reaches only after its copy wait:
  // b cannot start a phase first, so a's wait passes and both go on.
  CopyKernel k;
  uint32_t bar = k.t.add("BAR.SYNC", {}, {});
  WarpBuilder a{k.t.insts}, b{k.t.insts};
  a.run(k.wait).run(bar).run(k.exit);
  b.run(bar).run(k.exit);
  EXPECT_LE(cycles(k.t.insts, {a.w, b.w}), 200u);
}

// Only a kernel with an asynchronous instruction or a wait for one takes the
// warp table's and the memory pipeline's asynchronous paths
// (KernelProgram::async); the others keep the synchronous hot paths.
TEST(AsyncKernel, MarkedByAnyAsyncFlagOnly) {
  auto marked = [](std::vector<std::string> opcodes) {
    TableBuilder t;
    for (const std::string& op : opcodes) t.add(op, {}, {});
    return build_program(1, t.insts, 0x100000, classify_sm90, nullptr, {}).async;
  };
  EXPECT_FALSE(marked({"FFMA", "LDG.E", "BAR.SYNC", "EXIT"}));
  EXPECT_TRUE(marked({"FFMA", "HGMMA.64x256x16.F32", "EXIT"}));
  EXPECT_TRUE(marked({"WARPGROUP.DEPBAR.LE", "EXIT"}));
  EXPECT_TRUE(marked({"SYNCS.ARRIVE.TRANS64", "EXIT"}));
  EXPECT_TRUE(marked({"SYNCS.PHASECHK.TRANS64", "EXIT"}));
}
