#include "kernel_accesses.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <sstream>

#include "formats/cta_payload.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "level_stacks.hpp"
#include "libcommon/diag.hpp"
#include "reuse_distance.hpp"

namespace sasskit::rdcache {

namespace {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

// Whether an access of `bytes` at one of `lanes` runs past 2^64.
bool past_address_space(std::span<const uint64_t> lanes, uint32_t bytes) {
  const uint64_t last_start = std::numeric_limits<uint64_t>::max() - (bytes - 1);
  return std::any_of(lanes.begin(), lanes.end(), [&](uint64_t a) { return a > last_start; });
}

// The same of `n` lanes at first + stride * j. With a stride below 2^32
// they wrap past 2^64 at most once: where the lowest (first or last) is
// not above the highest none does, and the highest is the one to check.
bool past_address_space(uint64_t first, uint64_t stride, unsigned n, uint32_t bytes) {
  const uint64_t last_start = std::numeric_limits<uint64_t>::max() - (bytes - 1);
  const bool falling = static_cast<int64_t>(stride) < 0;
  const uint64_t last = first + stride * (n - 1);
  const uint64_t low = falling ? last : first, high = falling ? first : last;
  if ((falling ? 0 - stride : stride) < (uint64_t{1} << 32) && low <= high) return high > last_start;
  for (unsigned j = 0; j < n; ++j)
    if (first + stride * j > last_start) return true;
  return false;
}

[[noreturn]] void fail_past_address_space(std::span<const uint64_t> lanes, const StaticInst& s,
                                          const std::string& where, uint32_t warp_id) {
  const uint64_t last_start = std::numeric_limits<uint64_t>::max() - (s.mem_width - 1);
  const uint64_t a = *std::find_if(lanes.begin(), lanes.end(), [&](uint64_t v) { return v > last_start; });
  fail_input(where + ": warp " + std::to_string(warp_id),
             "address " + hex(a) + " + " + std::to_string(s.mem_width) + " bytes (" + s.opcode + " at pc " +
                 hex(s.pc) + ") runs past the 64-bit address space");
}

// One request of an access the caches do not see, and its sectors.
void count_uncached(std::span<const uint64_t> lanes, const StaticInst& s, const KernelAccesses& kernel,
                    Traffic& traffic) {
  thread_local std::vector<LineAccess> lines;
  coalesce(lanes, s.mem_width, LineShape{kernel.gpu->l1d.line_bytes, kernel.gpu->l1d.sector_bytes}, lines);
  traffic.requests += 1;
  for (const LineAccess& l : lines) traffic.sectors += sectors_in(l.mask);
}

// Appends the memory instruction at `pos` (table entry `inst`) and the L1
// lines its lanes touch.
void add_access(WarpAccesses& w, uint32_t pos, uint32_t inst, std::span<const LineAccess> lines) {
  w.pos.push_back(pos);
  w.inst.push_back(inst);
  w.lines.insert(w.lines.end(), lines.begin(), lines.end());
  w.line_begin.push_back(static_cast<uint32_t>(w.lines.size()));
}

WarpAccesses warp_accesses(const WarpTrace& w, const KernelAccesses& kernel,
                           std::array<Traffic, kCategories>* uncached, const std::string& where,
                           uint64_t& cached_lanes) {
  const std::vector<StaticInst>& table = kernel.table;
  WarpAccesses out;
  out.line_begin.push_back(0);
  size_t next = 0;  // into w.addrs
  for (size_t i = 0; i < w.inst.size(); ++i) {
    const StaticInst& s = table[w.inst[i]];
    if (s.mem_width == 0) continue;
    const unsigned lanes = active_lanes(w.mask[i]);
    if (lanes == 0) continue;
    const std::span<const uint64_t> addrs = std::span(w.addrs).subspan(next, lanes);
    if (past_address_space(addrs, s.mem_width)) fail_past_address_space(addrs, s, where, w.warp_id);
    const Route& route = kernel.routes[w.inst[i]];
    next += lanes;
    if (!route.cached) {
      if (uncached) count_uncached(addrs, s, kernel, (*uncached)[route.category]);
      continue;
    }
    cached_lanes += lanes;
    thread_local std::vector<LineAccess> lines;
    coalesce(addrs, s.mem_width, kernel.l1_shape, lines);
    add_access(out, static_cast<uint32_t>(i), w.inst[i], lines);
  }
  return out;
}

}  // namespace

KernelAccesses::KernelAccesses(const KernelInfo& kernel, const GpuConfig& model)
    : info(kernel), gpu(&model), l1_shape(line_shape(model.l1d, level_name(Level::L1))) {}

void add_insts(KernelAccesses& kernel, const std::vector<StaticInst>& insts) {
  const OpcodeTable& opcodes = OpcodeTable::for_version(kernel.info.binary_version);
  for (const StaticInst& s : insts) {
    kernel.table.push_back(s);
    kernel.routes.push_back(s.mem_width > 0 ? route_of(s.opcode, opcodes.classify(s.opcode), *kernel.gpu) : Route{});
  }
}

void count_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where) {
  for (const WarpTrace& w : cta.warps) warp_accesses(w, kernel, &kernel.uncached, where, kernel.lane_addresses);
}

CtaAccesses cta_accesses(const KernelAccesses& kernel, const CtaTrace& cta, uint32_t linear) {
  CtaAccesses c;
  c.linear = linear;
  uint64_t cached_lanes = 0;
  for (const WarpTrace& w : cta.warps)
    c.warps.push_back(warp_accesses(w, kernel, nullptr, "spilled cta record", cached_lanes));
  return c;
}

void CtaTally::add_to(KernelAccesses& kernel) const {
  for (size_t c = 0; c < kCategories; ++c) {
    kernel.uncached[c].requests += uncached[c].requests;
    kernel.uncached[c].sectors += uncached[c].sectors;
  }
  kernel.lane_addresses += lane_addresses;
}

bool count_payload(KernelAccesses& kernel, std::string_view payload, const std::string& where,
                   std::span<const UnitClass> unit_of, UnitCounts& units, CtaAccesses& accesses) {
  CtaTally tally;
  if (!read_payload(kernel, payload, where, unit_of, units, accesses, tally)) return false;
  tally.add_to(kernel);
  return true;
}

namespace {

// read_payload's work, through `in`.
bool read_warps(stream::PayloadReader& in, const KernelAccesses& kernel, std::span<const UnitClass> unit_of,
                UnitCounts& units, CtaAccesses& accesses, CtaTally& tally) {
  std::array<Traffic, kCategories> uncached{};
  uint64_t lane_addresses = 0;
  UnitCounts counted{};
  std::array<uint64_t, 32> lanes;
  size_t warps = 0;  // a warp's buffers come as it is read: a count alone allocates nothing
  stream::WarpUnits warp_units;
  while (in.next_warp(true)) {
    if (!warp_units.add(in, kernel.table, unit_of, counted)) return false;
    if (warps == accesses.warps.size()) accesses.warps.emplace_back();
    WarpAccesses& w = accesses.warps[warps++];
    w.pos.clear();
    w.inst.clear();
    w.line_begin.assign(1, 0);
    w.lines.clear();
    for (uint32_t i : in.memory()) {
      const uint32_t inst = in.inst()[i];
      const Route& route = kernel.routes[inst];
      // Lanes the payload codes as affine take no look at each lane where cached.
      const stream::PayloadReader::Access access = in.read_access(lanes.data(), route.cached);
      const unsigned n = active_lanes(in.mask()[i]);
      if (n == 0) continue;
      const std::span<const uint64_t> addrs(lanes.data(), n);
      const StaticInst& s = kernel.table[inst];
      const bool affine = route.cached && access.affine;
      const bool past = affine ? past_address_space(lanes[0], access.stride, n, s.mem_width)
                               : past_address_space(addrs, s.mem_width);
      if (past) return false;
      if (!route.cached) {
        count_uncached(addrs, s, kernel, uncached[route.category]);
        continue;
      }
      lane_addresses += n;
      thread_local std::vector<LineAccess> lines;
      if (affine)
        coalesce_affine(lanes[0], access.stride, n, s.mem_width, kernel.l1_shape, lines);
      else
        coalesce(addrs, s.mem_width, kernel.l1_shape, lines);
      add_access(w, i, inst, lines);
    }
  }
  accesses.warps.resize(warps);
  tally.uncached = uncached;
  tally.lane_addresses = lane_addresses;
  units = counted;
  return true;
}

}  // namespace

// A reader per thread, restarted CTA after CTA, keeps its columns and its
// tables (a new one allocated five of them per CTA). It knows no record, so
// a payload it fails on is read again by one that names `where`: the same
// bytes fail the same way.
bool read_payload(const KernelAccesses& kernel, std::string_view payload, const std::string& where,
                  std::span<const UnitClass> unit_of, UnitCounts& units, CtaAccesses& accesses, CtaTally& tally) {
  thread_local std::optional<stream::PayloadReader> reused;
  try {
    if (reused)
      reused->restart(payload);
    else
      reused.emplace(payload, std::string());
    return read_warps(*reused, kernel, unit_of, units, accesses, tally);
  } catch (const Error&) {
    stream::PayloadReader in(payload, where);
    return read_warps(in, kernel, unit_of, units, accesses, tally);
  }
}

void add_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where) {
  stream::validate_cta(cta, kernel.table, where);
  const auto linear = static_cast<uint32_t>(
      stream::cta_linear_index(cta.cta, kernel.info.grid, stream::kernel_label(kernel.info), where));
  count_cta(kernel, cta, where);
  kernel.ctas.push_back(cta_accesses(kernel, cta, linear));
}

}  // namespace sasskit::rdcache
