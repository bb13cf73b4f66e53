// The "stats" record pipe-sim adds per kernel (formats/STREAM.md, `stats`):
// what the pipeline simulation measured, for the kernel as a whole, per SM
// and per static PC. stall-report reads it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/stream.hpp"
#include "libcommon/gpu_config.hpp"

namespace sasskit {

// Root stall types (HyFiSS §III-B, plus Ctrl for an empty front end).
enum class StallType : uint8_t { MemStruct, MemData, ComStruct, ComData, Sync, Ctrl, Idle, Other, Count };
inline constexpr size_t kStallTypes = static_cast<size_t>(StallType::Count);
const char* stall_type_name(StallType t);  // "MemStruct", ... "Other"

// Stall events: HyFiSS Table I numbering; None marks an attribution failure.
enum class StallEvent : uint8_t {
  None = 0,
  UnitSaturation = 1,     // execution-unit pipeline saturation
  IssueExclusion = 2,     // two consecutive issues to one unit
  ResultBus = 3,          // result bus / write-back port saturation
  DispatchQueue = 4,      // dispatch queue saturation
  BankConflict = 5,       // register-bank conflict on operand reads
  NoCollector = 6,        // no free operand collector unit
  Interconnect = 7,       // interconnect / request-queue congestion (MSHRs)
  DataDependence = 8,     // scoreboard RAW/WAW
  MemoryAccess = 9,       // long-latency cache / global memory access
  NoActiveWarp = 10,      // no warp with an instruction in the ibuffer
  Barrier = 11,           // barrier synchronisation
  Count
};
inline constexpr size_t kStallEvents = static_cast<size_t>(StallEvent::Count);
const char* stall_event_name(StallEvent e);  // "none", "unit-saturation", ...

struct UnitCounters {
  uint64_t busy_cycles = 0;  // cycles a pipeline of the class was occupied (initiation intervals; LDST: cycles the address latch held an instruction)
  uint64_t insts = 0;        // warp instructions dispatched to the class
  bool operator==(const UnitCounters&) const = default;
};

struct CacheCounters {
  uint64_t accesses = 0;
  uint64_t misses = 0;
  bool operator==(const CacheCounters&) const = default;
};

// Counters of one SM, or of a whole kernel (the sum over its SMs).
struct SimCounters {
  uint64_t active_cycles = 0;  // cycles with at least one CTA resident (kernel: longest SM)
  uint64_t sm_cycles = 0;      // active cycles summed over SMs
  uint64_t sched_cycles = 0;   // per scheduler active cycles, summed over schedulers
  uint64_t insts = 0;          // warp instructions issued
  uint64_t thread_insts = 0;   // active lanes of those
  uint64_t ctas = 0;           // CTAs completed
  uint64_t warp_cycles = 0;    // sum over active cycles of resident warps (occupancy)
  uint64_t max_warps = 0;      // the SM's warp slots (kernel: per SM)
  std::array<uint64_t, kStallTypes> stall_type{};    // scheduler stall cycles by root type
  std::array<uint64_t, kStallEvents> stall_event{};  // the same cycles by root event
  std::array<UnitCounters, kUnitClasses> units{};
  CacheCounters l0i, l1i;      // instruction fetches (L0 per sub-core, summed)
  uint64_t mem_insts = 0;      // memory instructions
  uint64_t mem_requests = 0;   // coalesced requests (global/local lines, shared wavefronts)
  uint64_t l1d_misses = 0;     // requests that left the SM
  uint64_t l2_sectors = 0;     // sectors those requests took to L2 (2.2)
  uint64_t l2_write_sectors = 0;  // of those, the sectors of stores (2.5)
  uint64_t dram_read_sectors = 0;   // sectors read from DRAM (2.2)
  uint64_t dram_write_sectors = 0;  // sectors written to DRAM: write-backs, writes passed on (2.2)
  uint64_t smem_conflict_cycles = 0;  // extra shared-memory cycles from bank conflicts
  uint64_t reg_bank_conflicts = 0;    // operand reads deferred a cycle by a busy bank
  uint64_t unknown_opcodes = 0;       // dynamic instructions classified by the fallback

  double ipc() const { return active_cycles ? double(insts) / double(active_cycles) : 0; }
  // Average resident warps per active SM cycle over the warp slots.
  double achieved_occupancy() const {
    return sm_cycles && max_warps ? double(warp_cycles) / double(sm_cycles) / double(max_warps) : 0;
  }
  uint64_t stall_cycles() const;
  void add(const SimCounters& o);  // sums; active_cycles and max_warps take the max
  bool operator==(const SimCounters&) const = default;
};

struct SmStats {
  uint32_t sm = 0;
  SimCounters c;
  bool operator==(const SmStats&) const = default;
};

// Per static PC (kernel-wide), columns of equal length.
struct PcStats {
  std::vector<uint64_t> pc;
  std::vector<uint64_t> insts;  // warp instructions issued
  std::array<std::vector<uint64_t>, kStallTypes> stall_type;  // stall cycles blamed on the PC
  bool operator==(const PcStats&) const = default;
};

// PKP (pka-micro21 §3.2): what was simulated and what was projected.
struct Projection {
  bool applied = false;          // at least one SM stopped early
  uint64_t simulated_cycles = 0; // kernel cycles actually simulated (longest SM)
  uint64_t projected_cycles = 0; // the kernel's cycles after projection (= simulated when not applied)
  uint64_t simulated_insts = 0;
  uint64_t projected_insts = 0;  // the trace's instruction count on the simulated SMs
  uint32_t unfinished_ctas = 0;  // CTAs left when SMs stopped
  // The estimated relative error of the projected cycles, where PKP
  // stopped the kernel (2.4; pipe-sim(1), PROJECTION): an estimate, not a
  // bound.
  std::optional<double> error_frac;
  bool operator==(const Projection&) const = default;
};

struct KernelStats {
  uint32_t kernel_id = 0;
  std::string name;
  std::string gpu;               // GpuConfig::name
  std::string schedule;          // "sched-record" or the modeled policy
  std::string memory;            // "cache-record" or "defaults"
  uint64_t stream_id = 0;
  uint64_t start_cycle = 0;      // on the GPU timeline (streams overlap, one stream serialises)
  uint64_t cycles = 0;           // the kernel's duration (projected when PKP applied)
  SimCounters total;
  std::vector<SmStats> per_sm;   // simulated SMs only, by SM number
  PcStats per_pc;
  Projection projection;
  // Whether the counters split L2 sectors into writes: false for a record
  // written before 2.5, whose l2_write_sectors read as 0.
  bool l2_writes_known = true;
  bool operator==(const KernelStats&) const = default;
};

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<KernelStats> {
  static constexpr RecordType type = RecordType::Stats;
  static void pack(Packer& pk, const KernelStats& s);
  static KernelStats unpack(const Record& r);
};

}  // namespace sasskit::stream
