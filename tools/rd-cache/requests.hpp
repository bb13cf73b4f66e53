// From a warp memory instruction to the requests the hardware makes: the
// sectors its active lanes touch, grouped by cache line, and the way those
// sectors take through L1 and L2.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libcommon/gpu_config.hpp"
#include "libcommon/opcodes.hpp"

namespace sasskit::rdcache {

struct LineShape {
  unsigned line_bytes = 128;
  unsigned sector_bytes = 32;
  unsigned sectors_per_line() const { return line_bytes / sector_bytes; }
};
// A usable shape of `g` (line a multiple of the sector, at most
// kMaxSectorsPerLine sectors), or a usage error naming `level`.
LineShape line_shape(const CacheGeometry& g, const std::string& level);

// One tag lookup: a line and the sectors of it touched (bit i = sector i).
struct LineAccess {
  uint64_t line = 0;
  uint32_t mask = 0;
  bool operator==(const LineAccess&) const = default;
};

// The lines and sectors that byte ranges [start, start + bytes) touch,
// ordered by line; `out` is replaced. Ranges must not wrap past 2^64.
void coalesce(std::span<const uint64_t> starts, uint32_t bytes, const LineShape& shape,
              std::vector<LineAccess>& out);

// coalesce of `n` lanes (at most 32, a warp's) at first + stride * j, as
// a compact payload codes its affine lanes. Where no step skips a sector
// (|stride| at most the access or the sector) and no lane wraps past 2^64,
// they touch every sector from the lowest lane's to the highest lane's
// last byte, added without a look at each lane; otherwise as coalesce.
void coalesce_affine(uint64_t first, uint64_t stride, unsigned n, uint32_t bytes, const LineShape& shape,
                     std::vector<LineAccess>& out);

// Memory spaces and operations as counted in the cache record: like
// Nsight Compute, one request per warp-level instruction with an active
// lane, and its sectors are the distinct 32-byte sectors the lanes touch.
enum class Op : uint8_t { Load, Store, Atomic };
inline constexpr size_t kSpaces = 7;  // MemSpace values
inline constexpr size_t kOps = 3;
inline constexpr size_t kCategories = kSpaces * kOps;
std::string category_name(size_t category);  // e.g. "global.ld"

struct Traffic {
  uint64_t requests = 0;
  uint64_t sectors = 0;
};

// Where the sectors of one static instruction go.
struct Route {
  size_t category = 0;
  Op op = Op::Load;
  bool cached = false;      // global, local or generic: through the L1/L2 model
  bool l1_lookup = false;   // looks up (and allocates in) L1
  bool l2_all = false;      // every sector goes on to L2 (L1 bypassed or write-through)
  bool l2_lookup = false;   // looks up (and allocates in) L2; else straight to DRAM
};

// The route of `inst_opcode` as classified by `info` under `gpu`:
//  - loads of global, local and generic memory look up L1, except global and
//    generic loads when gpu.l1_caches_global_loads is false and loads with a
//    .CG or .CV cache operator (PTX ISA, "Cache Operators": ld.cg caches in
//    L2 only, ld.cv fetches again), which go straight to L2;
//  - stores look up L1 only if l1d.write_allocate; a write-through L1 sends
//    every store sector on to L2; a write-back, write-allocate L1 keeps them
//    (write-backs on eviction are not modeled);
//  - atomics are performed at L2;
//  - an L2 sector that is written looks up L2 only if l2.write_allocate;
//  - shared, constant and texture accesses are counted, not cached here.
Route route_of(std::string_view opcode, const OpcodeInfo& info, const GpuConfig& gpu);

}  // namespace sasskit::rdcache
