#include "formats/stats_record.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "formats/field_table.hpp"

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

namespace {

using stream::Field;
using stream::Merge;
using stream::Need;
using Counter = Field<SimCounters>;

// The scalars in the record's order: the SM's time and work, written before
// the per-type columns, and its memory traffic and conflicts, after them;
// how two SMs' counts merge; Since: records before 2.2 lack them (read as
// 0). A new counter is a member and a line here (and a row in STREAM.md).
constexpr Counter kWorkFields[] = {
    {.key = "active_cycles", .member = &SimCounters::active_cycles, .merge = Merge::Max},
    {"sm_cycles", &SimCounters::sm_cycles},
    {"sched_cycles", &SimCounters::sched_cycles},
    {"insts", &SimCounters::insts},
    {"thread_insts", &SimCounters::thread_insts},
    {"ctas", &SimCounters::ctas},
    {"warp_cycles", &SimCounters::warp_cycles},
    {.key = "max_warps", .member = &SimCounters::max_warps, .merge = Merge::Max},
};
constexpr Counter kTrafficFields[] = {
    {"mem_insts", &SimCounters::mem_insts},
    {"mem_requests", &SimCounters::mem_requests},
    {"l1d_misses", &SimCounters::l1d_misses},
    {"l2_sectors", &SimCounters::l2_sectors, Need::Since},
    {"l2_write_sectors", &SimCounters::l2_write_sectors, Need::Since},
    {"dram_read_sectors", &SimCounters::dram_read_sectors, Need::Since},
    {"dram_write_sectors", &SimCounters::dram_write_sectors, Need::Since},
    {"smem_conflict_cycles", &SimCounters::smem_conflict_cycles},
    {"reg_bank_conflicts", &SimCounters::reg_bank_conflicts},
    {"unknown_opcodes", &SimCounters::unknown_opcodes},
};

void merge_fields(SimCounters& into, const SimCounters& from, std::span<const Counter> fields) {
  for (const Counter& f : fields) {
    const auto member = std::get<uint64_t SimCounters::*>(f.member);
    uint64_t& v = into.*member;
    v = f.merge == Merge::Max ? std::max(v, from.*member) : v + from.*member;
  }
}

template <size_t N>
void add_column(std::array<uint64_t, N>& into, const std::array<uint64_t, N>& from) {
  for (size_t i = 0; i < N; ++i) into[i] += from[i];
}

}  // namespace

uint64_t SimCounters::stall_cycles() const {
  uint64_t n = 0;
  for (uint64_t v : stall_type) n += v;
  return n;
}

void SimCounters::add(const SimCounters& o) {
  merge_fields(*this, o, kWorkFields);
  merge_fields(*this, o, kTrafficFields);
  add_column(stall_type, o.stall_type);
  add_column(stall_event, o.stall_event);
  for (size_t i = 0; i < kUnitClasses; ++i) {
    units[i].busy_cycles += o.units[i].busy_cycles;
    units[i].insts += o.units[i].insts;
  }
  l0i.accesses += o.l0i.accesses;
  l0i.misses += o.l0i.misses;
  l1i.accesses += o.l1i.accesses;
  l1i.misses += o.l1i.misses;
}

}  // namespace sasskit

namespace sasskit::stream {
namespace {

// The entries of a counters map (the derived ipc, occupancy and
// stall_cycles included), for pack_map_of.
template <class Map>
void counter_entries(Map& map, const SimCounters& c) {
  const auto same = [](uint64_t v) { return v; };
  pack_fields(map, c, kWorkFields);
  map("ipc", c.ipc());
  map("occupancy", c.achieved_occupancy());
  map.with("stall_type", column_of(c.stall_type, same));
  map.with("stall_event", column_of(c.stall_event, same));
  map.with("unit_busy", column_of(c.units, [](const UnitCounters& u) { return u.busy_cycles; }));
  map.with("unit_insts", column_of(c.units, [](const UnitCounters& u) { return u.insts; }));
  map.with("l0i", column_of(std::array{c.l0i.accesses, c.l0i.misses}, same));
  map.with("l1i", column_of(std::array{c.l1i.accesses, c.l1i.misses}, same));
  pack_fields(map, c, kTrafficFields);
  map("stall_cycles", c.stall_cycles());
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
  read_fields(m, c, kWorkFields, "stats");
  c.stall_type = fixed_column<kStallTypes>(m, "stall_type");
  c.stall_event = fixed_column<kStallEvents>(m, "stall_event");
  auto busy = fixed_column<kUnitClasses>(m, "unit_busy");
  auto insts = fixed_column<kUnitClasses>(m, "unit_insts");
  for (size_t i = 0; i < kUnitClasses; ++i) c.units[i] = {busy[i], insts[i]};
  auto l0i = fixed_column<2>(m, "l0i");
  auto l1i = fixed_column<2>(m, "l1i");
  c.l0i = {l0i[0], l0i[1]};
  c.l1i = {l1i[0], l1i[1]};
  read_fields(m, c, kTrafficFields, "stats");
  if (c.l2_write_sectors > c.l2_sectors)
    fail_input(m.where(), "field 'l2_write_sectors' is more than 'l2_sectors'");
  return c;
}

void pack_pcs(Packer& pk, const PcStats& p) {
  pack_map_of(pk, [&](auto& map) {
    map("pc", p.pc);
    map("insts", p.insts);
    const auto whole = [](const std::vector<uint64_t>& col) -> const std::vector<uint64_t>& { return col; };
    map.with("stall_type", column_of(p.stall_type, whole));
  });
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

constexpr Field<Projection> kProjectionFields[] = {
    {"applied", &Projection::applied},
    {"simulated_cycles", &Projection::simulated_cycles},
    {"projected_cycles", &Projection::projected_cycles},
    {"simulated_insts", &Projection::simulated_insts},
    {"projected_insts", &Projection::projected_insts},
    {"unfinished_ctas", &Projection::unfinished_ctas},
    {"error_frac", &Projection::error_frac, Need::IfSet},
};

// The record's scalars, before its counters, SMs, PCs and projection.
constexpr Field<KernelStats> kKernelFields[] = {
    {"kernel", &KernelStats::kernel_id},
    {"name", &KernelStats::name},
    {"gpu", &KernelStats::gpu},
    {"schedule", &KernelStats::schedule},
    {"memory", &KernelStats::memory},
    {"stream", &KernelStats::stream_id},
    {"start", &KernelStats::start_cycle},
    {"cycles", &KernelStats::cycles},
};

void pack_projection(Packer& pk, const Projection& p) {
  pack_map_of(pk, [&](auto& map) { pack_fields(map, p, kProjectionFields); });
}

Projection unpack_projection(const MapView& m) {
  Projection p;
  read_fields(m, p, kProjectionFields, "projection");
  if (p.error_frac && !(std::isfinite(*p.error_frac) && *p.error_frac >= 0))
    fail_input(m.where(), "field 'error_frac' is not a finite number of at least 0");
  return p;
}

}  // namespace

void RecordCodec<KernelStats>::pack(Packer& pk, const KernelStats& s) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, s, kKernelFields);
    map.with("total", [&](Packer& out) { pack_map_of(out, [&](auto& m) { counter_entries(m, s.total); }); });
    map.with("sms", [&](Packer& out) {
      out.pack_array(static_cast<uint32_t>(s.per_sm.size()));
      for (const auto& sm : s.per_sm)
        pack_map_of(out, [&](auto& m) {
          counter_entries(m, sm.c);
          m("sm", sm.sm);
        });
    });
    map.with("pcs", [&](Packer& out) { pack_pcs(out, s.per_pc); });
    map.with("projection", [&](Packer& out) { pack_projection(out, s.projection); });
  });
}

KernelStats RecordCodec<KernelStats>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelStats s;
  read_fields(m, s, kKernelFields, "stats");
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
