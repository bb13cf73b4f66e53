// Hand-built micro-kernels for the pipeline tests: a Volta-like test GPU, a
// small opcode classifier, and builders for traces.
#pragma once

#include <string>
#include <vector>

#include "decode.hpp"
#include "sm.hpp"
#include "tests/support/volta_like_gpu.hpp"

namespace sasskit::pipesim::test {

// Latencies and sizes chosen for round expectations, close to QV100
// (Accel-Sim's SM7_QV100 config: INT/SP latency 4, 4 sub-cores).
inline GpuConfig test_gpu() {
  GpuConfig g = sasskit::test::volta_like_gpu("test", 4);
  g.scheduler = SchedulerPolicy::Gto;
  g.collector_units = 2;
  g.reg_banks = 2;
  g.reg_ports_per_bank = 2;
  g.ibuffer_depth = 2;
  g.has_l0i = true;  // size 0: perfect instruction caches unless a test sets them
  for (auto& u : g.units) u = ExecUnit{1, 4, 1};
  g.units[size_t(UnitClass::Dp)] = ExecUnit{1, 8, 4};
  g.units[size_t(UnitClass::Sfu)] = ExecUnit{1, 20, 4};
  g.l1d.latency = 28;
  g.l1d.line_bytes = 128;
  g.l1d.sector_bytes = 32;
  g.l2.latency = 200;
  g.dram_latency = 200;
  g.smem_latency = 24;
  g.smem_banks = 32;
  return g;
}

inline OpcodeInfo classify(std::string_view op) {
  OpcodeInfo i;
  auto starts = [&](std::string_view p) { return op.substr(0, p.size()) == p; };
  if (starts("FFMA") || starts("FADD")) i.unit = UnitClass::Sp;
  else if (starts("DFMA")) i.unit = UnitClass::Dp;
  else if (starts("MUFU")) i.unit = UnitClass::Sfu;
  else if (starts("LDG")) { i.unit = UnitClass::Ldst; i.space = MemSpace::Global; i.is_load = true; }
  else if (starts("STG")) { i.unit = UnitClass::Ldst; i.space = MemSpace::Global; i.is_store = true; }
  else if (starts("LDS")) { i.unit = UnitClass::Ldst; i.space = MemSpace::Shared; i.is_load = true; }
  else if (starts("BAR")) { i.unit = UnitClass::Branch; i.is_barrier = true; }
  else if (starts("BRA")) { i.unit = UnitClass::Branch; i.is_branch = true; }
  else if (starts("EXIT")) { i.unit = UnitClass::Branch; i.is_exit = true; }
  else if (starts("IADD3") || starts("IMAD") || starts("MOV")) i.unit = UnitClass::Int;
  else i.known = false;
  return i;
}

// A static table built instruction by instruction at PCs 0, 16, 32, ...
struct TableBuilder {
  std::vector<StaticInst> insts;
  uint32_t add(std::string op, std::vector<uint16_t> dst, std::vector<uint16_t> src, uint32_t width = 0) {
    StaticInst s;
    s.pc = 16 * insts.size();
    s.opcode = std::move(op);
    s.dst = std::move(dst);
    s.src = std::move(src);
    s.mem_width = width;
    insts.push_back(s);
    return static_cast<uint32_t>(insts.size() - 1);
  }
};

// A warp that runs `seq` (table indices) with all lanes active; memory
// instructions get `addr_of(lane, k)` (k counts the warp's accesses).
template <class AddrFn>
WarpTrace make_warp(uint32_t id, const std::vector<StaticInst>& table, const std::vector<uint32_t>& seq,
                    AddrFn addr_of) {
  WarpTrace w;
  w.warp_id = id;
  uint32_t k = 0;
  for (uint32_t i : seq) {
    w.inst.push_back(i);
    w.mask.push_back(0xffffffffu);
    if (table[i].mem_width > 0) {
      w.addr_mode.push_back(0);
      for (uint32_t lane = 0; lane < 32; ++lane) w.addrs.push_back(addr_of(lane, k));
      ++k;
    }
  }
  return w;
}
inline WarpTrace make_warp(uint32_t id, const std::vector<StaticInst>& table, const std::vector<uint32_t>& seq) {
  return make_warp(id, table, seq, [](uint32_t lane, uint32_t k) { return 0x1000000ull + 4 * lane + 4096ull * k; });
}

struct Simulated {
  KernelProgram program;
  SmResult result;
};

// Runs the CTAs on one SM (of `active_sms` sharing the bandwidth), with
// rd-cache's `cache` record if given, else the hit rates `mem`.
inline Simulated simulate(const GpuConfig& gpu, const std::vector<StaticInst>& table,
                          const std::vector<CtaTrace>& ctas, unsigned ctas_per_sm = 8,
                          MemoryDefaults mem = {}, unsigned active_sms = 1,
                          const KernelCacheModel* cache = nullptr) {
  SimOptions opt;
  opt.gpu = gpu;
  opt.ctas_per_sm = ctas_per_sm;
  opt.active_sms = active_sms;
  Simulated s;
  s.program = build_program(1, table, 0x100000, classify, cache, mem);
  SmWork work{.source = {.held = &ctas}};
  for (uint32_t c = 0; c < ctas.size(); ++c) work.ctas.push_back(c);
  s.result = SmSim(opt, s.program, work).run();
  return s;
}

// CTA (x, 0, 0) of kernel `kernel_id`.
inline CtaTrace make_cta(std::vector<WarpTrace> warps, uint32_t x = 0, uint32_t kernel_id = 1) {
  CtaTrace c;
  c.kernel_id = kernel_id;
  c.cta = {x, 0, 0};
  c.warps = std::move(warps);
  return c;
}

// The launch of kernel `id`: a 1-D grid of `ctas` CTAs of `threads` threads,
// sm_70, 32 registers per thread.
inline KernelInfo make_launch(uint32_t id, std::string name, uint32_t ctas, uint32_t threads) {
  KernelInfo k;
  k.id = id;
  k.name = std::move(name);
  k.grid = {ctas, 1, 1};
  k.block = {threads, 1, 1};
  k.nregs = 32;
  k.binary_version = 70;
  return k;
}

// What a stage built alone is given (tests/pipe-sim/*_test.cpp for the
// stages): a model, a kernel built from the table a test fills before
// calling build(), the clock, one sub-core's port and the counters.
struct LoneStage {
  explicit LoneStage(GpuConfig gpu) : gpu_(std::move(gpu)) {}
  void build() { program_ = build_program(1, t_.insts, 0x100000, classify, nullptr, {}); }
  SubCorePort& port() { return ports_[0]; }

  GpuConfig gpu_;
  TableBuilder t_;
  KernelProgram program_;
  Clock clock_;
  std::vector<SubCorePort> ports_{1};
  SimCounters counters_;
  Stage wiring_{gpu_, program_, clock_, ports_, counters_};
};

// test_gpu() with one sub-core.
inline GpuConfig one_subcore_gpu() {
  GpuConfig g = test_gpu();
  g.subcores_per_sm = 1;
  return g;
}

}  // namespace sasskit::pipesim::test
