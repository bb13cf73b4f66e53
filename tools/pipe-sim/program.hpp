// A kernel as the pipeline sees it: each static instruction decoded once
// (unit, memory space, registers, address, cache behaviour), and the CTAs
// each simulated SM runs, in launch order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cta_summaries.hpp"
#include "formats/trace.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::pipesim {

inline constexpr uint16_t kRegZero = 255;  // RZ: never a dependence
inline constexpr unsigned kMaxDst = 4, kMaxSrc = 6;

struct DecodedInst {
  uint64_t pc = 0;         // offset in the kernel (stats key)
  uint64_t address = 0;    // where the instruction lives (instruction caches)
  uint32_t pc_index = 0;   // index into KernelProgram::pcs
  OpcodeInfo op;
  uint32_t mem_width = 0;  // bytes per lane; 0 = no memory access
  // A warpgroup MMA's N (shape 64xNxK; 0 for any other instruction). The
  // tensor unit's initiation interval is that of 2048 dense FP16 FMAs (one
  // HMMA.16816); a warp's quarter of a 64xNx16 FP16 MMA is 16 x N x 16 FMAs,
  // N/8 times as many. The TF32 (K = 8) and FP8/INT8 (K = 32) shapes take as
  // long, at half and twice the FP16 rate (NVIDIA H100 whitepaper, dense rates).
  uint16_t mma_n = 0;
  uint8_t ndst = 0, nsrc = 0;
  std::array<uint16_t, kMaxDst> dst{};
  std::array<uint16_t, kMaxSrc> src{};  // distinct, RZ removed
  float l1_hit = 0, l2_hit = 0;         // per-access outcome rates for this PC
  float writeback_rate = 0;  // dirty sectors a write-back L2 evicts to DRAM per sector this PC sends to L2
  bool is_mem() const { return op.unit == UnitClass::Ldst; }
};

struct KernelProgram {
  uint32_t kernel_id = 0;
  std::vector<DecodedInst> insts;  // one per entry of the kernel's instruction table
  std::vector<uint64_t> pcs;       // distinct PCs, ascending
  // The kernel has asynchronous instructions or waits for them (sm_90's
  // opcode flags): only then do the warp table and the memory pipeline take
  // their asynchronous paths, so that another kernel's hot paths test this
  // one bit and nothing per instruction.
  bool async = false;
  // The kernel has bulk copies, copy groups or copy waits: the warp table
  // keeps its CTAs' copy groups (Hopper's mbarrier phases).
  bool copy_sync = false;
};

// Where the SMs find a kernel's CTAs by their place in the stream: held in
// memory, or spilled (CTA i is record first_record + i of `spill`, read back
// when an SM launches it and dropped when it retires) with their summaries.
struct CtaSource {
  const std::vector<CtaTrace>* held = nullptr;
  const CtaSummaries* spilled = nullptr;
  const SpillFile* spill = nullptr;
  size_t first_record = 0;

  // CTA i's dynamic warp instructions.
  uint64_t insts(uint32_t i) const;
  // Spilled CTA i, read back from the spill file into `into`, reusing its
  // buffers and those of `bytes`.
  void read_back(uint32_t i, CtaTrace& into, std::string& bytes) const;
};

// The CTAs one SM runs, by their place in the stream, in the order it
// launches them.
struct SmWork {
  uint32_t sm = 0;
  std::vector<uint32_t> ctas;
  CtaSource source;
  uint32_t dispatch_rank = 0;  // its place among the kernel's SMs in the CTA dispatcher's first round
};

// PKP (pka-micro21 §3.2).
struct PkpOptions {
  bool enabled = false;
  double s = 0.25;        // IPC standard deviation threshold
  uint64_t window = 3000; // cycles
  // The largest estimated error (a fraction of the kernel's cycles) at which
  // a kernel stops: the user's tolerance, 5% by default.
  double max_error = 0.05;
  bool grid_below_wave = false;  // the grid fits in one wave: only the drain rule may stop it
};

struct SimOptions {
  GpuConfig gpu;
  unsigned ctas_per_sm = 1;  // resident CTA limit (occupancy)
  unsigned fetch_width = 2;  // instructions per fetch, one cache line at most
  unsigned active_sms = 1;   // SMs running the kernel: they share the interconnect
  PkpOptions pkp;
  bool trace_stalls = false;
  // false: the LRR scheduler visits warps one by one, as GTO does (the
  // reference its bit-mask scan is tested against).
  bool lrr_mask_scan = true;
  // false: every cycle in which a stage progresses is evaluated whole (the
  // reference the SM's latch streaks are tested against).
  bool latch_streaks = true;
  // Recompute the warp table's cached state after every evaluated cycle and
  // fail where it is stale (always on in debug builds; tests turn it on).
  bool check_warp_table = false;
  size_t trace_stalls_limit = 1'000'000;  // rows per SM
};

}  // namespace sasskit::pipesim
