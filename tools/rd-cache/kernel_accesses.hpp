// One kernel's memory accesses: the kernel-wide part (table, routes, traffic
// the caches do not see) while its CTAs arrive, and per CTA, when the cache
// model runs it, only the memory instructions of each warp (their position
// in the warp's dynamic stream, table index and the L1 lines their lanes
// touch) and the count of all instructions. Lanes are coalesced as a CTA
// is read, while its addresses are still in the CPU's cache.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/trace.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/nonstall.hpp"
#include "requests.hpp"

namespace sasskit::rdcache {

struct WarpAccesses {
  std::vector<uint32_t> pos;         // per memory instruction: index in the dynamic stream
  std::vector<uint32_t> inst;        // per memory instruction: index into the kernel's table
  std::vector<uint32_t> line_begin;  // per memory instruction + 1: offsets into lines
  std::vector<LineAccess> lines;     // the L1 lines and sectors its lanes touch (coalesce)
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
  LineShape l1_shape;  // of gpu->l1d, the lines a warp's lanes are coalesced into
  std::vector<StaticInst> table;
  std::vector<Route> routes;                  // per table entry (memory instructions)
  std::array<Traffic, kCategories> uncached{};  // requests and sectors outside L1/L2
  std::vector<CtaAccesses> ctas;              // held by add_cta (tests, small inputs), in stream order
  uint64_t lane_addresses = 0;                // of cached accesses
};

// Appends entries to the kernel's instruction table and routes them.
void add_insts(KernelAccesses& kernel, const std::vector<StaticInst>& insts);

// Counts the traffic of a CTA the kernel layer has checked (table indices,
// column lengths, place in the grid) that the caches do not see, and checks
// that its addresses + width stay within 2^64 (BadInput naming `where`).
void count_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where);

// The accesses of a CTA that count_cta has passed, at `linear` in the grid.
// Memory instructions with no active lane make no request and are dropped.
CtaAccesses cta_accesses(const KernelAccesses& kernel, const CtaTrace& cta, uint32_t linear);

// count_cta, the CTA's instructions by unit (`unit_of`: per table entry)
// and its accesses (as cta_accesses, but for `linear`, into `accesses`,
// its buffers reused) from a cta record's compact payload in one read,
// building no trace. False, having counted nothing, unless the payload
// agrees with the kernel's table exactly (each memory instruction where
// the table has one) and no address runs past 2^64: the caller then
// decodes the record (CtaRecord::decode, count_cta), which says what is
// wrong. A damaged payload is BadInput at `where`, as when decoded.
bool count_payload(KernelAccesses& kernel, std::string_view payload, const std::string& where,
                   std::span<const UnitClass> unit_of, UnitCounts& units, CtaAccesses& accesses);

// What count_payload adds to the kernel for one CTA.
struct CtaTally {
  std::array<Traffic, kCategories> uncached{};
  uint64_t lane_addresses = 0;
  void add_to(KernelAccesses& kernel) const;
};

// count_payload without touching the kernel: its counts into `tally`, for
// the caller to add (several CTAs can be read at once, from several threads).
bool read_payload(const KernelAccesses& kernel, std::string_view payload, const std::string& where,
                  std::span<const UnitClass> unit_of, UnitCounts& units, CtaAccesses& accesses, CtaTally& tally);

// The kernel layer's checks, count_cta, then holds the CTA's accesses in
// kernel.ctas (tests and small inputs).
void add_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where);

// Where the cache model finds a kernel's CTAs, numbered in stream order:
// held in memory, or read back from a spill file one group at a time.
class CtaSource {
 public:
  virtual ~CtaSource() = default;
  virtual size_t size() const = 0;
  virtual uint32_t linear(size_t cta) const = 0;
  // Into `out`, its buffers reused. Safe from several threads at once.
  virtual void load(size_t cta, CtaAccesses& out) const = 0;
};

// The CTAs held in kernel.ctas.
class HeldCtas : public CtaSource {
 public:
  explicit HeldCtas(const KernelAccesses& kernel) : kernel_(kernel) {}
  size_t size() const override { return kernel_.ctas.size(); }
  uint32_t linear(size_t cta) const override { return kernel_.ctas[cta].linear; }
  void load(size_t cta, CtaAccesses& out) const override { out = kernel_.ctas[cta]; }

 private:
  const KernelAccesses& kernel_;
};

}  // namespace sasskit::rdcache
