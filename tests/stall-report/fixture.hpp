// A small, fully known run for stall-report's tests: two kernels with
// stats, SASS text for the first, a cache record for the second, and on
// request a plan, a sample record or a second design point ("b").
#pragma once

#include <sstream>
#include <string>

#include "formats/cache_record.hpp"
#include "formats/plan_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "formats/stats_record.hpp"

namespace sasskit::testing {

struct FixtureOptions {
  bool stats = true;
  bool plan = false;    // kernel 1 weighs 3 (stem)
  bool sample = false;  // kernel 2 was sampled: half of its instructions
  bool variant_b = false;  // a faster design: fewer memory stalls
  std::string vecadd_name = "_Z6vecAddPfS_S_i";  // kernel 1's name as the trace gives it
};

inline void set_type(SimCounters& c, StallType t, uint64_t v) { c.stall_type[size_t(t)] = v; }
inline void set_event(SimCounters& c, StallEvent e, uint64_t v) { c.stall_event[size_t(e)] = v; }
inline void set_unit(SimCounters& c, UnitClass u, uint64_t busy, uint64_t insts) {
  c.units[size_t(u)] = {busy, insts};
}

inline KernelStats fixture_vecadd(bool b) {
  KernelStats k;
  k.kernel_id = 1;
  k.name = "_Z6vecAddPfS_S_i";
  k.gpu = "QV100";
  k.cycles = b ? 800 : 1000;
  SimCounters& c = k.total;
  c.active_cycles = k.cycles;
  c.sm_cycles = 4 * k.cycles;
  c.insts = 400;
  c.thread_insts = 12800;
  c.warp_cycles = c.sm_cycles * 16;
  c.max_warps = 64;
  uint64_t mem = b ? 400 : 600;
  set_type(c, StallType::MemData, mem);
  set_type(c, StallType::ComData, 200);
  set_type(c, StallType::ComStruct, 100);
  set_type(c, StallType::Ctrl, 100);
  set_event(c, StallEvent::MemoryAccess, mem);
  set_event(c, StallEvent::DataDependence, 200);
  set_event(c, StallEvent::UnitSaturation, 100);
  set_event(c, StallEvent::NoActiveWarp, 100);
  set_unit(c, UnitClass::Int, 200, 200);
  set_unit(c, UnitClass::Sp, 100, 100);
  set_unit(c, UnitClass::Ldst, 300, 100);
  c.mem_insts = 100;
  c.mem_requests = 100;
  c.l1d_misses = 40;
  k.per_pc.pc = {0x00, 0x10, 0x20, 0x30};
  k.per_pc.insts = {100, 100, 100, 100};
  for (auto& col : k.per_pc.stall_type) col.assign(4, 0);
  k.per_pc.stall_type[size_t(StallType::Ctrl)] = {100, 0, 0, 0};
  k.per_pc.stall_type[size_t(StallType::ComStruct)] = {0, 100, 0, 0};
  k.per_pc.stall_type[size_t(StallType::ComData)] = {0, 0, 200, 0};
  k.per_pc.stall_type[size_t(StallType::MemData)] = {0, 0, 0, mem};
  k.projection.simulated_cycles = k.projection.projected_cycles = k.cycles;
  k.projection.simulated_insts = k.projection.projected_insts = c.insts;
  return k;
}

inline KernelStats fixture_gemm(bool b) {
  KernelStats k;
  k.kernel_id = 2;
  k.name = "_Z4gemmPKfS0_Pf";
  k.gpu = "QV100";
  k.cycles = b ? 4500 : 5000;
  SimCounters& c = k.total;
  c.active_cycles = k.cycles;
  c.sm_cycles = 80 * k.cycles;
  c.insts = 20000;
  c.thread_insts = 640000;
  c.warp_cycles = c.sm_cycles * 32;
  c.max_warps = 64;
  set_type(c, StallType::MemStruct, b ? 500 : 1000);
  set_type(c, StallType::ComData, 2000);
  set_type(c, StallType::Sync, 1000);
  set_event(c, StallEvent::Interconnect, b ? 500 : 1000);
  set_event(c, StallEvent::DataDependence, 2000);
  set_event(c, StallEvent::Barrier, 1000);
  set_unit(c, UnitClass::Sp, 8000, 8000);
  set_unit(c, UnitClass::Tensor, 4000, 1000);
  set_unit(c, UnitClass::Ldst, 6000, 3000);
  c.mem_insts = 3000;
  c.mem_requests = 6000;
  c.l1d_misses = 1500;
  k.per_pc.pc = {0x100};
  k.per_pc.insts = {20000};
  for (size_t t = 0; t < kStallTypes; ++t) k.per_pc.stall_type[t] = {c.stall_type[t]};
  k.projection.simulated_cycles = k.projection.projected_cycles = k.cycles;
  k.projection.simulated_insts = k.projection.projected_insts = c.insts;
  return k;
}

inline InstTable fixture_insts() {
  InstTable t;
  t.kernel_id = 1;
  auto inst = [](uint64_t pc, std::string op, std::vector<uint16_t> dst, std::vector<uint16_t> src, uint32_t width) {
    StaticInst i;
    i.pc = pc;
    i.opcode = std::move(op);
    i.dst = std::move(dst);
    i.src = std::move(src);
    i.mem_width = width;
    return i;
  };
  t.insts = {inst(0x00, "MOV", {1}, {}, 0), inst(0x10, "IMAD", {2}, {1, 255}, 0),
             inst(0x20, "LDG.E", {4}, {2}, 4), inst(0x30, "FADD", {5}, {4, 1}, 0)};
  return t;
}

inline KernelCacheModel fixture_cache() {
  KernelCacheModel m;
  m.kernel_id = 2;
  m.l1_hit_rate = 0.75;
  m.l2_hit_rate = 0.5;
  m.gmem_requests = 800;
  return m;
}

inline Plan fixture_plan() {
  Plan p;
  p.method = "stem";
  p.unit = "ns";
  p.invocations = 4;
  p.clusters = {{"vecAdd", 3, 1, 10, 0}, {"gemm", 1, 1, 50, 0}};
  p.entries = {{1, "_Z6vecAddPfS_S_i", 0, 1, 3}, {2, "_Z4gemmPKfS0_Pf", 1, 1, 1}};
  return p;
}

inline KernelSample fixture_sample() {
  KernelSample s;
  s.kernel_id = 2;
  s.selection = "max";
  s.sms = {0};
  s.ctas = {0, 1};
  s.predicted_cycles = {11000, 9000};
  s.kernel_insts = 40000;
  s.sample_insts = 20000;
  s.kernel_ctas = 4;
  s.sm_insts = {20000, 20000};
  s.sampling_error = sampling_error(s.predicted_cycles, s.sm_insts, s.sms);  // (11000/20000) / (20000/40000) - 1 = 0.1
  s.gpu = "QV100";
  return s;
}

// The kernel record that every record about kernel `id` follows; its grid
// holds the CTAs a sample of it counts (fixture_sample's kernel_ctas).
inline KernelInfo fixture_kernel(uint32_t id, std::string name, Dim3 grid = {1, 1, 1}) {
  KernelInfo k;
  k.id = id;
  k.name = std::move(name);
  k.grid = grid;
  return k;
}

inline void write_fixture(std::ostream& out, const FixtureOptions& o) {
  stream::Writer w(out, "fixture", stream::Header{}, stream::this_stage("stallreport-mkstream", {}, true, {}));
  if (o.plan) w.write(fixture_plan());
  w.write(fixture_kernel(1, o.vecadd_name));
  w.write(fixture_insts());
  if (o.stats) {
    KernelStats vecadd = fixture_vecadd(o.variant_b);
    vecadd.name = o.vecadd_name;
    w.write(vecadd);
  }
  w.write(fixture_kernel(2, "_Z4gemmPKfS0_Pf", {4, 1, 1}));
  if (o.sample) w.write(fixture_sample());
  w.write(fixture_cache());
  if (o.stats) w.write(fixture_gemm(o.variant_b));
  w.finish();
}

inline std::string fixture_stream(const FixtureOptions& o) {
  std::ostringstream s;
  write_fixture(s, o);
  return s.str();
}

}  // namespace sasskit::testing
