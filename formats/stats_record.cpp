#include "formats/stats_record.hpp"

#include <algorithm>
#include <cmath>

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"

namespace sasskit {

const char* stall_type_name(StallType t) {
  static constexpr const char* names[kStallTypes] = {"MemStruct", "MemData", "ComStruct", "ComData",
                                                     "Sync",      "Ctrl",    "Idle",      "Other"};
  return names[static_cast<size_t>(t)];
}

const char* stall_event_name(StallEvent e) {
  static constexpr const char* names[kStallEvents] = {
      "none",           "unit-saturation", "issue-exclusion", "result-bus",
      "dispatch-queue", "bank-conflict",   "no-collector",    "interconnect",
      "data-dependence", "memory-access",  "no-active-warp",  "barrier"};
  return names[static_cast<size_t>(e)];
}

uint64_t SimCounters::stall_cycles() const {
  uint64_t n = 0;
  for (uint64_t v : stall_type) n += v;
  return n;
}

void SimCounters::add(const SimCounters& o) {
  active_cycles = std::max(active_cycles, o.active_cycles);
  max_warps = std::max(max_warps, o.max_warps);
  sm_cycles += o.sm_cycles;
  sched_cycles += o.sched_cycles;
  insts += o.insts;
  thread_insts += o.thread_insts;
  ctas += o.ctas;
  warp_cycles += o.warp_cycles;
  for (size_t i = 0; i < kStallTypes; ++i) stall_type[i] += o.stall_type[i];
  for (size_t i = 0; i < kStallEvents; ++i) stall_event[i] += o.stall_event[i];
  for (size_t i = 0; i < kUnitClasses; ++i) {
    units[i].busy_cycles += o.units[i].busy_cycles;
    units[i].insts += o.units[i].insts;
  }
  l0i.accesses += o.l0i.accesses;
  l0i.misses += o.l0i.misses;
  l1i.accesses += o.l1i.accesses;
  l1i.misses += o.l1i.misses;
  mem_insts += o.mem_insts;
  mem_requests += o.mem_requests;
  l1d_misses += o.l1d_misses;
  l2_sectors += o.l2_sectors;
  l2_write_sectors += o.l2_write_sectors;
  dram_read_sectors += o.dram_read_sectors;
  dram_write_sectors += o.dram_write_sectors;
  smem_conflict_cycles += o.smem_conflict_cycles;
  reg_bank_conflicts += o.reg_bank_conflicts;
  unknown_opcodes += o.unknown_opcodes;
}

}  // namespace sasskit

namespace sasskit::stream {
namespace {

template <class T, size_t N, class F>
void pack_column(Packer& pk, const std::array<T, N>& a, F field) {
  pk.pack_array(static_cast<uint32_t>(N));
  for (const auto& v : a) pk.pack(field(v));
}

void pack_counters(Packer& pk, const SimCounters& c, uint32_t extra_fields) {
  pk.pack_map(27 + extra_fields);
  pack_key(pk, "active_cycles"); pk.pack(c.active_cycles);
  pack_key(pk, "sm_cycles"); pk.pack(c.sm_cycles);
  pack_key(pk, "sched_cycles"); pk.pack(c.sched_cycles);
  pack_key(pk, "insts"); pk.pack(c.insts);
  pack_key(pk, "thread_insts"); pk.pack(c.thread_insts);
  pack_key(pk, "ctas"); pk.pack(c.ctas);
  pack_key(pk, "warp_cycles"); pk.pack(c.warp_cycles);
  pack_key(pk, "max_warps"); pk.pack(c.max_warps);
  pack_key(pk, "ipc"); pk.pack(c.ipc());
  pack_key(pk, "occupancy"); pk.pack(c.achieved_occupancy());
  pack_key(pk, "stall_type"); pack_column(pk, c.stall_type, [](uint64_t v) { return v; });
  pack_key(pk, "stall_event"); pack_column(pk, c.stall_event, [](uint64_t v) { return v; });
  pack_key(pk, "unit_busy"); pack_column(pk, c.units, [](const UnitCounters& u) { return u.busy_cycles; });
  pack_key(pk, "unit_insts"); pack_column(pk, c.units, [](const UnitCounters& u) { return u.insts; });
  pack_key(pk, "l0i"); pk.pack_array(2); pk.pack(c.l0i.accesses); pk.pack(c.l0i.misses);
  pack_key(pk, "l1i"); pk.pack_array(2); pk.pack(c.l1i.accesses); pk.pack(c.l1i.misses);
  pack_key(pk, "mem_insts"); pk.pack(c.mem_insts);
  pack_key(pk, "mem_requests"); pk.pack(c.mem_requests);
  pack_key(pk, "l1d_misses"); pk.pack(c.l1d_misses);
  pack_key(pk, "l2_sectors"); pk.pack(c.l2_sectors);
  pack_key(pk, "l2_write_sectors"); pk.pack(c.l2_write_sectors);
  pack_key(pk, "dram_read_sectors"); pk.pack(c.dram_read_sectors);
  pack_key(pk, "dram_write_sectors"); pk.pack(c.dram_write_sectors);
  pack_key(pk, "smem_conflict_cycles"); pk.pack(c.smem_conflict_cycles);
  pack_key(pk, "reg_bank_conflicts"); pk.pack(c.reg_bank_conflicts);
  pack_key(pk, "unknown_opcodes"); pk.pack(c.unknown_opcodes);
  pack_key(pk, "stall_cycles"); pk.pack(c.stall_cycles());
}

template <size_t N>
std::array<uint64_t, N> fixed_column(const MapView& m, std::string_view field) {
  auto v = m.get<std::vector<uint64_t>>(field);
  if (v.size() != N)
    fail_input(m.where(), "field '" + std::string(field) + "' needs " + std::to_string(N) + " values");
  std::array<uint64_t, N> a{};
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

SimCounters unpack_counters(const MapView& m) {
  SimCounters c;
  c.active_cycles = m.get<uint64_t>("active_cycles");
  c.sm_cycles = m.get<uint64_t>("sm_cycles");
  c.sched_cycles = m.get<uint64_t>("sched_cycles");
  c.insts = m.get<uint64_t>("insts");
  c.thread_insts = m.get<uint64_t>("thread_insts");
  c.ctas = m.get<uint64_t>("ctas");
  c.warp_cycles = m.get<uint64_t>("warp_cycles");
  c.max_warps = m.get<uint64_t>("max_warps");
  c.stall_type = fixed_column<kStallTypes>(m, "stall_type");
  c.stall_event = fixed_column<kStallEvents>(m, "stall_event");
  auto busy = fixed_column<kUnitClasses>(m, "unit_busy");
  auto insts = fixed_column<kUnitClasses>(m, "unit_insts");
  for (size_t i = 0; i < kUnitClasses; ++i) c.units[i] = {busy[i], insts[i]};
  auto l0i = fixed_column<2>(m, "l0i");
  auto l1i = fixed_column<2>(m, "l1i");
  c.l0i = {l0i[0], l0i[1]};
  c.l1i = {l1i[0], l1i[1]};
  c.mem_insts = m.get<uint64_t>("mem_insts");
  c.mem_requests = m.get<uint64_t>("mem_requests");
  c.l1d_misses = m.get<uint64_t>("l1d_misses");
  c.l2_sectors = m.get_or<uint64_t>("l2_sectors", 0);
  c.l2_write_sectors = m.get_or<uint64_t>("l2_write_sectors", 0);
  if (c.l2_write_sectors > c.l2_sectors)
    fail_input(m.where(), "field 'l2_write_sectors' is more than 'l2_sectors'");
  c.dram_read_sectors = m.get_or<uint64_t>("dram_read_sectors", 0);
  c.dram_write_sectors = m.get_or<uint64_t>("dram_write_sectors", 0);
  c.smem_conflict_cycles = m.get<uint64_t>("smem_conflict_cycles");
  c.reg_bank_conflicts = m.get<uint64_t>("reg_bank_conflicts");
  c.unknown_opcodes = m.get<uint64_t>("unknown_opcodes");
  return c;
}

void pack_pcs(Packer& pk, const PcStats& p) {
  pk.pack_map(3);
  pack_key(pk, "pc"); pk.pack(p.pc);
  pack_key(pk, "insts"); pk.pack(p.insts);
  pack_key(pk, "stall_type");
  pk.pack_array(static_cast<uint32_t>(kStallTypes));
  for (const auto& col : p.stall_type) pk.pack(col);
}

PcStats unpack_pcs(const MapView& m) {
  PcStats p;
  p.pc = m.get<std::vector<uint64_t>>("pc");
  p.insts = m.get<std::vector<uint64_t>>("insts");
  auto cols = m.array("stall_type");
  if (cols.size() != kStallTypes) fail_input(m.where(), "per-PC 'stall_type' needs one column per stall type");
  for (size_t t = 0; t < kStallTypes; ++t) {
    p.stall_type[t] = m.convert<std::vector<uint64_t>>(cols[t], "stall_type");
    if (p.stall_type[t].size() != p.pc.size()) fail_input(m.where(), "per-PC columns differ in length");
  }
  if (p.insts.size() != p.pc.size()) fail_input(m.where(), "per-PC columns differ in length");
  return p;
}

void pack_projection(Packer& pk, const Projection& p) {
  pk.pack_map(p.error_frac ? 7 : 6);
  pack_key(pk, "applied"); pk.pack(p.applied);
  pack_key(pk, "simulated_cycles"); pk.pack(p.simulated_cycles);
  pack_key(pk, "projected_cycles"); pk.pack(p.projected_cycles);
  pack_key(pk, "simulated_insts"); pk.pack(p.simulated_insts);
  pack_key(pk, "projected_insts"); pk.pack(p.projected_insts);
  pack_key(pk, "unfinished_ctas"); pk.pack(p.unfinished_ctas);
  if (p.error_frac) { pack_key(pk, "error_frac"); pk.pack(*p.error_frac); }
}

Projection unpack_projection(const MapView& m) {
  Projection p{m.get<bool>("applied"),           m.get<uint64_t>("simulated_cycles"),
               m.get<uint64_t>("projected_cycles"), m.get<uint64_t>("simulated_insts"),
               m.get<uint64_t>("projected_insts"),  m.get<uint32_t>("unfinished_ctas")};
  if (m.has("error_frac")) p.error_frac = m.get<double>("error_frac");
  if (p.error_frac && !(std::isfinite(*p.error_frac) && *p.error_frac >= 0))
    fail_input(m.where(), "field 'error_frac' is not a finite number of at least 0");
  return p;
}

}  // namespace

void RecordCodec<KernelStats>::pack(Packer& pk, const KernelStats& s) {
  pk.pack_map(13);
  pack_key(pk, "t"); pack_key(pk, type);
  pack_key(pk, "kernel"); pk.pack(s.kernel_id);
  pack_key(pk, "name"); pk.pack(s.name);
  pack_key(pk, "gpu"); pk.pack(s.gpu);
  pack_key(pk, "schedule"); pk.pack(s.schedule);
  pack_key(pk, "memory"); pk.pack(s.memory);
  pack_key(pk, "stream"); pk.pack(s.stream_id);
  pack_key(pk, "start"); pk.pack(s.start_cycle);
  pack_key(pk, "cycles"); pk.pack(s.cycles);
  pack_key(pk, "total"); pack_counters(pk, s.total, 0);
  pack_key(pk, "sms");
  pk.pack_array(static_cast<uint32_t>(s.per_sm.size()));
  for (const auto& sm : s.per_sm) {
    pack_counters(pk, sm.c, 1);
    pack_key(pk, "sm"); pk.pack(sm.sm);
  }
  pack_key(pk, "pcs"); pack_pcs(pk, s.per_pc);
  pack_key(pk, "projection"); pack_projection(pk, s.projection);
}

KernelStats RecordCodec<KernelStats>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelStats s;
  s.kernel_id = m.get<uint32_t>("kernel");
  s.name = m.get<std::string>("name");
  s.gpu = m.get<std::string>("gpu");
  s.schedule = m.get<std::string>("schedule");
  s.memory = m.get<std::string>("memory");
  s.stream_id = m.get<uint64_t>("stream");
  s.start_cycle = m.get<uint64_t>("start");
  s.cycles = m.get<uint64_t>("cycles");
  const MapView total(m.at("total"), r.where() + " (total)");
  s.total = unpack_counters(total);
  s.l2_writes_known = total.has("l2_write_sectors");
  for (const auto& o : m.array("sms")) {
    MapView sm(o, r.where() + " (sms)");
    s.per_sm.push_back(SmStats{sm.get<uint32_t>("sm"), unpack_counters(sm)});
  }
  s.per_pc = unpack_pcs(MapView(m.at("pcs"), r.where() + " (pcs)"));
  s.projection = unpack_projection(MapView(m.at("projection"), r.where() + " (projection)"));
  return s;
}

}  // namespace sasskit::stream
