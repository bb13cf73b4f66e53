#include "requests.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "libcommon/diag.hpp"
#include "libcommon/divisor.hpp"
#include "reuse_distance.hpp"

namespace sasskit::rdcache {

LineShape line_shape(const CacheGeometry& g, const std::string& level) {
  if (g.sector_bytes == 0 || g.line_bytes == 0 || g.line_bytes % g.sector_bytes != 0)
    fail_usage(level + ": line size " + std::to_string(g.line_bytes) +
               " is not a positive multiple of the sector size " + std::to_string(g.sector_bytes));
  if (g.line_bytes / g.sector_bytes > kMaxSectorsPerLine)
    fail_usage(level + ": more than " + std::to_string(kMaxSectorsPerLine) + " sectors per line");
  return LineShape{g.line_bytes, g.sector_bytes};
}

namespace {

// Adds sector `s` to `out`, whose lines so far hold only lower sectors.
// Inlined: it runs once per sector of every lane set out of order.
[[gnu::always_inline]] inline void add_sector(uint64_t s, const Divisor& per_line, std::vector<LineAccess>& out) {
  const uint64_t line = per_line.div(s);
  const uint32_t bit = 1u << per_line.mod(s);
  if (out.empty() || out.back().line != line)
    out.push_back(LineAccess{line, bit});
  else
    out.back().mask |= bit;
}

// Adds sectors first..last to `out`, whose lines so far hold only lower sectors.
void add_sectors(uint64_t first, uint64_t last, const Divisor& per_line, std::vector<LineAccess>& out) {
  for (uint64_t s = first; s <= last; ++s) add_sector(s, per_line, out);
}

// Sectors first..last into the empty `out`, a line at a time.
void add_run(uint64_t first, uint64_t last, const LineShape& shape, std::vector<LineAccess>& out) {
  const unsigned per_line = shape.sectors_per_line();  // at most kMaxSectorsPerLine
  for (uint64_t line = Divisor(per_line).div(first);; ++line) {
    const uint64_t line_first = line * per_line;
    const auto from = static_cast<unsigned>(std::max(first, line_first) - line_first);
    const auto to = static_cast<unsigned>(std::min(last, line_first + (per_line - 1)) - line_first);
    out.push_back(LineAccess{line, ((2u << to) - 1) & ~((1u << from) - 1)});
    if (line_first + to == last) return;
  }
}

// Sectors a bitmap spans: the lanes of a warp out of order mostly lie
// within a few lines of each other.
constexpr uint64_t kBitmapSectors = 256;

// Marks the sectors of every lane in a bitmap of the kBitmapSectors from
// `low`; false as soon as one falls outside it.
bool mark_sectors(std::span<const uint64_t> starts, uint32_t bytes, const Divisor& sector, uint64_t low,
                  std::array<uint64_t, kBitmapSectors / 64>& marked) {
  for (uint64_t start : starts) {
    const uint64_t first = sector.div(start), last = sector.div(start + (bytes - 1));
    if (first < low || last - low >= kBitmapSectors) return false;
    for (uint64_t s = first - low; s <= last - low; ++s) marked[s / 64] |= uint64_t(1) << (s % 64);
  }
  return true;
}

// The sectors of every lane (a sector touched by several lanes as often),
// sorted: in `room` where they are sure to fit (a warp's lanes of a sector
// or two each), else in `spill`.
std::span<const uint64_t> sorted_sectors(std::span<const uint64_t> starts, uint32_t bytes, const Divisor& sector,
                                         std::span<uint64_t> room, std::vector<uint64_t>& spill) {
  const uint64_t most = starts.size() * (sector.div(bytes - 1) + 2);  // a lane spans at most this many
  uint64_t* const at = most <= room.size() ? room.data() : (spill.resize(most), spill.data());
  uint64_t* next = at;
  for (uint64_t start : starts) {
    const uint64_t last = sector.div(start + (bytes - 1));
    for (uint64_t s = sector.div(start); s <= last; ++s) *next++ = s;
  }
  std::sort(at, next);
  return {at, next};
}

// coalesce of lanes in any order: their sectors marked in a bitmap centred
// on the first lane's, or sorted where they spread wider.
void coalesce_unordered(std::span<const uint64_t> starts, uint32_t bytes, const Divisor& sector,
                        const Divisor& per_line, std::vector<LineAccess>& out) {
  out.clear();
  const uint64_t first = sector.div(starts[0]);
  const uint64_t low = first > kBitmapSectors / 2 ? first - kBitmapSectors / 2 : 0;
  std::array<uint64_t, kBitmapSectors / 64> marked{};
  if (mark_sectors(starts, bytes, sector, low, marked)) {
    for (size_t w = 0; w < marked.size(); ++w)
      for (uint64_t bits = marked[w]; bits; bits &= bits - 1)
        add_sector(low + w * 64 + static_cast<uint64_t>(std::countr_zero(bits)), per_line, out);
    return;
  }
  std::array<uint64_t, 64> room;
  thread_local std::vector<uint64_t> spill;  // wider lanes
  // A sector repeated adds its bit to its line again: nothing to remove.
  for (uint64_t s : sorted_sectors(starts, bytes, sector, room, spill)) add_sector(s, per_line, out);
}

}  // namespace

void coalesce(std::span<const uint64_t> starts, uint32_t bytes, const LineShape& shape,
              std::vector<LineAccess>& out) {
  out.clear();
  if (bytes == 0 || starts.empty()) return;
  const Divisor sector(shape.sector_bytes), per_line(shape.sectors_per_line());
  // Lanes usually rise (consecutive lanes, rising addresses): their sectors
  // go straight to `out` until a lane starts below the last sector added.
  // Most lanes lie within that sector, which `start - tail < room` finds
  // without dividing.
  const uint64_t room = bytes <= shape.sector_bytes ? shape.sector_bytes - bytes + 1 : 0;
  uint64_t last = sector.div(starts[0] + (bytes - 1));  // the last sector added
  add_sectors(sector.div(starts[0]), last, per_line, out);
  uint64_t tail = last * shape.sector_bytes;  // its first byte
  for (uint64_t start : starts.subspan(1)) {
    if (start - tail < room) continue;
    const uint64_t first = sector.div(start);
    if (first < last) return coalesce_unordered(starts, bytes, sector, per_line, out);
    const uint64_t lane_last = sector.div(start + (bytes - 1));
    add_sectors(first == last ? first + 1 : first, lane_last, per_line, out);
    last = lane_last;
    tail = last * shape.sector_bytes;
  }
}

void coalesce_affine(uint64_t first, uint64_t stride, unsigned n, uint32_t bytes, const LineShape& shape,
                     std::vector<LineAccess>& out) {
  const bool falling = static_cast<int64_t>(stride) < 0;
  const uint64_t step = falling ? 0 - stride : stride;
  const uint64_t last = first + stride * (n - 1);
  const uint64_t low = falling ? last : first, high = falling ? first : last;
  if (n < 2 || bytes == 0 || step > std::max<uint64_t>(bytes, shape.sector_bytes) || high < low) {
    std::array<uint64_t, 32> starts;
    for (unsigned j = 0; j < n; ++j) starts[j] = first + stride * j;
    return coalesce(std::span(starts).first(n), bytes, shape, out);
  }
  const Divisor sector(shape.sector_bytes);
  out.clear();
  add_run(sector.div(low), sector.div(high + (bytes - 1)), shape, out);
}

std::string category_name(size_t category) {
  static const char* const ops[kOps] = {"ld", "st", "atom"};
  return std::string(mem_space_name(static_cast<MemSpace>(category / kOps))) + "." +
         ops[category % kOps];
}

namespace {

bool has_modifier(std::string_view opcode, std::string_view modifier) {
  size_t dot = opcode.find('.');
  while (dot != std::string_view::npos) {
    const size_t next = opcode.find('.', dot + 1);
    if (opcode.substr(dot + 1, next - dot - 1) == modifier) return true;
    dot = next;
  }
  return false;
}

Op op_of(const OpcodeInfo& info) {
  if (info.is_atomic) return Op::Atomic;
  return info.is_store ? Op::Store : Op::Load;
}

}  // namespace

Route route_of(std::string_view opcode, const OpcodeInfo& info, const GpuConfig& gpu) {
  // An access the opcode table cannot place is taken as global memory.
  const MemSpace space = info.space == MemSpace::None ? MemSpace::Global : info.space;
  const Op op = op_of(info);
  Route r;
  r.category = static_cast<size_t>(space) * kOps + static_cast<size_t>(op);
  r.op = op;
  r.cached = space == MemSpace::Global || space == MemSpace::Local || space == MemSpace::Generic;
  if (!r.cached) return r;
  switch (op) {
    case Op::Load: {
      const bool bypass = (space != MemSpace::Local && !gpu.l1_caches_global_loads) ||
                          has_modifier(opcode, "CG") || has_modifier(opcode, "CV");
      r.l1_lookup = !bypass;
      r.l2_all = bypass;
      r.l2_lookup = true;
      break;
    }
    case Op::Store:
      r.l1_lookup = gpu.l1d.write_allocate;
      r.l2_all = gpu.l1d.write_policy == WritePolicy::WriteThrough || !gpu.l1d.write_allocate;
      r.l2_lookup = gpu.l2.write_allocate;
      break;
    case Op::Atomic:
      r.l2_all = true;
      r.l2_lookup = true;
      break;
  }
  return r;
}

}  // namespace sasskit::rdcache
