// The GPU model every simulator tool reads (sasskit-config(5)). Values come
// from a CLI11 config file (configs/NAME.cfg) or from options of the tool.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libcommon/name_table.hpp"

namespace sasskit {

// Execution-unit classes an instruction can be dispatched to.
enum class UnitClass : uint8_t { Int, Sp, Dp, Sfu, Tensor, Ldst, Branch, Count };
inline constexpr size_t kUnitClasses = static_cast<size_t>(UnitClass::Count);
const char* unit_name(UnitClass u);  // "INT", "SP", "DP", "SFU", "TENSOR", "LDST", "BRANCH"
// The class whose unit_name() is `name` (case-insensitive); false if none.
bool unit_from_name(std::string_view name, UnitClass& out);
// "unit-int", ...: the prefix of the class's config keys (sasskit-config(5)).
std::string unit_key(UnitClass u);

// The warp scheduler's issue policy (pipe-sim's make_issue_policy).
enum class SchedulerPolicy : uint8_t { Lrr, Gto, TwoLevel };
// Its names, in the order sasskit-config(5) lists them.
inline constexpr auto kSchedulerPolicies = std::to_array<Named<SchedulerPolicy>>({
    {SchedulerPolicy::Gto, "gto"},
    {SchedulerPolicy::Lrr, "lrr"},
    {SchedulerPolicy::TwoLevel, "two-level"},
});
const char* scheduler_name(SchedulerPolicy p);  // its name in kSchedulerPolicies
// The policy whose scheduler_name() is `name` (case-insensitive); false if none.
bool scheduler_from_name(std::string_view name, SchedulerPolicy& out);
enum class WritePolicy : uint8_t { WriteThrough, WriteBack };
inline constexpr auto kWritePolicies = std::to_array<Named<WritePolicy>>({
    {WritePolicy::WriteThrough, "write-through"},
    {WritePolicy::WriteBack, "write-back"},
});

// One execution-unit class within a sub-core: `count` pipelines, each takes a
// new warp instruction every `initiation_interval` cycles and delivers its
// result `latency` cycles after issue.
struct ExecUnit {
  unsigned count = 1;
  unsigned latency = 1;
  unsigned initiation_interval = 1;
};

struct CacheGeometry {
  uint64_t size_bytes = 0;
  unsigned line_bytes = 128;
  unsigned sector_bytes = 32;
  unsigned assoc = 0;  // ways; 0 = fully associative
  unsigned latency = 0;  // hit latency, cycles
  unsigned mshrs = 0;    // outstanding misses; 0 = unlimited
  WritePolicy write_policy = WritePolicy::WriteThrough;
  bool write_allocate = false;
  uint64_t sets() const;  // size / (line * assoc); 1 when fully associative
};

struct GpuConfig {
  std::string name;      // e.g. "QV100"
  double clock_mhz = 0;  // SM clock

  // Chip and SM limits (CUDA programming guide, compute capability tables).
  unsigned num_sms = 0;
  unsigned subcores_per_sm = 4;
  unsigned warp_size = 32;
  unsigned max_warps_per_sm = 0;
  unsigned max_threads_per_sm = 0;
  unsigned max_ctas_per_sm = 0;
  unsigned max_threads_per_cta = 1024;
  unsigned regs_per_sm = 0;             // 32-bit registers
  unsigned max_regs_per_thread = 255;
  unsigned reg_alloc_unit = 256;        // registers allocated per warp in units of this
  uint64_t smem_per_sm = 0;             // bytes available to CTAs at the chosen carve-out
  uint64_t smem_per_cta = 0;            // max per CTA
  unsigned smem_alloc_unit = 256;       // bytes
  std::vector<unsigned> smem_carveouts_kb;  // selectable shared-memory sizes
  unsigned smem_reserved_per_cta = 0;   // bytes the system reserves per CTA (1 KB on sm_80+)
  uint64_t unified_l1_smem_bytes = 0;   // L1 + shared memory storage; 0 = separate (Pascal)

  // Per sub-core front end and back end.
  SchedulerPolicy scheduler = SchedulerPolicy::Gto;
  unsigned collector_units = 2;
  unsigned reg_banks = 2;
  unsigned reg_ports_per_bank = 2;  // shared by operand reads and write-backs
  unsigned ibuffer_depth = 2;       // decoded instructions per warp
  bool has_l0i = true;              // Pascal: false
  CacheGeometry l0i;                // per sub-core
  CacheGeometry l1i;                // per SM, shared by sub-cores
  unsigned inst_prefetch_lines = 0; // stream buffer: lines fetched ahead of an instruction miss (0: none)
  std::array<ExecUnit, kUnitClasses> units{};

  // Memory system.
  CacheGeometry l1d;                // per SM
  bool l1_caches_global_loads = true;  // GP104: global loads bypass L1 unless marked cacheable
  unsigned smem_banks = 32;
  unsigned smem_latency = 0;
  CacheGeometry l2;                 // whole chip
  unsigned l2_slices = 0;
  unsigned dram_latency = 0;        // cycles beyond L2, SM clock
  unsigned l2_atomic_latency = 0;   // cycles an atomic spends in L2's atomic unit beyond a hit
  double dram_bandwidth_gbs = 0;    // GB/s
  double dram_efficiency = 1;       // share of dram_bandwidth_gbs a stream of misses sustains
  double noc_bytes_per_cycle = 0;   // interconnect bandwidth, bytes per SM clock, whole chip
  double l2_efficiency = 1;         // share of noc_bytes_per_cycle a stream of L2 hits sustains
  double noc_port_bytes_per_cycle = 0;  // one SM's interconnect port, bytes per SM clock (0: a line)
  unsigned kernel_launch_latency = 0;  // cycles from a kernel's predecessor in its stream to its start
  unsigned kernel_fixed_cycles = 0;    // a kernel's own start and end cost, spent before its first CTA
  unsigned cta_launch_latency = 0;     // cycles from a free CTA slot to the next CTA's first fetch
  double cta_dispatch_rate = 0;        // CTAs the GPU's CTA dispatcher sends to SMs per cycle (0: no limit)
  unsigned max_concurrent_kernels = 0; // kernels resident on the GPU at once (0: no limit)
  // Sustained DRAM bandwidth in bytes per SM clock, whole chip (0 when unknown).
  double dram_bytes_per_cycle() const {
    return clock_mhz > 0 ? dram_efficiency * dram_bandwidth_gbs * 1e3 / clock_mhz : 0;
  }
  // Sustained bandwidth between the SMs and L2 in bytes per SM clock, whole chip.
  double l2_bytes_per_cycle() const { return l2_efficiency * noc_bytes_per_cycle; }
  // The most one SM moves to and from L2 per SM clock, whatever its share.
  double noc_port_bytes() const {
    return noc_port_bytes_per_cycle > 0 ? noc_port_bytes_per_cycle : double(std::max(32u, l1d.line_bytes));
  }

  const ExecUnit& unit(UnitClass u) const { return units[static_cast<size_t>(u)]; }
};

// Throws a usage error naming the config key (sasskit-config(5)) when a
// required value is missing or two values contradict each other.
void validate(const GpuConfig& gpu);

// What a CTA asks of an SM.
struct CtaResources {
  unsigned threads = 0;
  unsigned regs_per_thread = 0;
  uint64_t smem_bytes = 0;
};

struct Occupancy {
  unsigned ctas_per_sm = 0;  // 0: not even one CTA fits
  std::string limiter;       // "warps", "threads", "ctas", "registers", "shared memory"
};

// CTAs per SM under NVIDIA's allocation rules (granularities, limits).
Occupancy occupancy(const GpuConfig& gpu, const CtaResources& cta);

}  // namespace sasskit
