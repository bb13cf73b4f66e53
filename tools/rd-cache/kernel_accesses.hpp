// One kernel's memory accesses, kept compact while its CTAs arrive: per warp
// only the memory instructions (their position in the warp's dynamic
// stream, table index and addresses) and the count of all instructions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/trace.hpp"
#include "libcommon/gpu_config.hpp"
#include "requests.hpp"

namespace sasskit::rdcache {

struct WarpAccesses {
  uint32_t dyn_insts = 0;            // all dynamic instructions of the warp
  std::vector<uint32_t> pos;         // per memory instruction: index in the dynamic stream
  std::vector<uint32_t> inst;        // per memory instruction: index into the kernel's table
  std::vector<uint32_t> addr_begin;  // per memory instruction + 1: offsets into addrs
  std::vector<uint64_t> addrs;
  size_t mem_insts() const { return pos.size(); }
};

struct CtaAccesses {
  uint32_t linear = 0;  // x + y*gx + z*gx*gy
  std::vector<WarpAccesses> warps;
};

// Only accesses the caches see keep their addresses; shared, constant and
// texture accesses are counted as they arrive.
struct KernelAccesses {
  KernelAccesses(const KernelInfo& kernel, const GpuConfig& gpu);
  KernelInfo info;
  const GpuConfig* gpu;
  std::vector<StaticInst> table;
  std::vector<Route> routes;                  // per table entry (memory instructions)
  std::array<Traffic, kCategories> uncached{};  // requests and sectors outside L1/L2
  std::vector<CtaAccesses> ctas;              // in stream order
  uint64_t lane_addresses = 0;                // kept
};

// Appends entries to the kernel's instruction table and routes them.
void add_insts(KernelAccesses& kernel, const std::vector<StaticInst>& insts);

// Checks `cta` against the kernel (table indices, column lengths, CTA index
// in the grid, addresses + width within 2^64) and appends its accesses.
// Memory instructions with no active lane make no request and are dropped.
// BadInput naming `where` otherwise.
void add_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where);

}  // namespace sasskit::rdcache
