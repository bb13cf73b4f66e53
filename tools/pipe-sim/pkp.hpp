// Principal Kernel Projection (pka-micro21 §3.2) for one kernel, made to
// hold on kernels whose rate changes after the first wave or whose CTAs
// differ in work (pipe-sim(1), PROJECTION). Two rules, either may stop it:
//
// Waves, while CTAs are still to launch:
// - as in the paper, the kernel's cumulative IPC must have been
//   quasi-stable over the window (standard deviation below s);
// - it stops only where a wave of CTAs has just finished, the second or a
//   later one: the first wave holds the memory system's warm-up;
// - the rest is projected per SM from the trace's instruction counts of
//   the CTAs it has still to run, at the rate of the last wave, between two
//   limits for the tail: the SM keeping its rate to the end, and each CTA
//   keeping its speed while the SM empties;
// - but a kernel that moves DRAM or L2 bytes at the chip's rate (within
//   the tolerance) is projected at the GPU-wide rate since the warm-up,
//   which holds as SMs that end hand their bandwidth to the others, plus
//   half its longest CTA still to finish, from two waves after the first;
//   at the DRAM's rate, with L2 hits, the warm-up lasts at least until
//   the DRAM has moved the L2's capacity: until the L2 is full its misses
//   fall as it fills, and the kernel speeds up with them, so it stops two
//   waves after that at the earliest, and the rate's change since then
//   is in the estimate;
// - it stops only when the estimated error of that projection (the two
//   limits' half-gap, plus the change of rate since the wave before over
//   the remaining cycles) is at most the user's tolerance
//   (PkpOptions::max_error); otherwise it runs on.
// A grid smaller than one wave is left to the second rule: the paper stops
// it at the first stable IPC, which on bench/pkp's stencil was 11-13% off.
//
// Drain, once every CTA has launched: each resident warp's remaining work
// is known (the trace's instructions it has still to issue), so the end is
// projected from the rates of the last window, between two limits: the
// GPU keeping its rate until the last instruction (throughput-bound), and
// each SM's longest warp keeping its share of its SM's rate
// (latency-bound). The estimate adds to their half-gap the change of the
// SMs' rates from the window before, over what is left, and half a window
// for the warps' last instructions, which the rates do not see; the
// kernel is not stopped in its last window.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "program.hpp"

namespace sasskit::pipesim {

// One SM of the kernel as PKP sees it at a step.
struct SmProgress {
  uint64_t insts = 0;          // warp instructions simulated
  uint64_t finished_ctas = 0;
  double l2_bytes = 0;    // moved between the SM and L2 so far
  double dram_bytes = 0;  // to and from DRAM so far
  // Once all its CTAs have launched: per warp slot, the instructions its
  // warp has still to issue (0: none there); empty before.
  std::vector<uint64_t> left_per_warp;
  double l2_reads = 0;        // sectors read from L2 so far
  double l2_read_misses = 0;  // of those, read from DRAM
};

// The work a kernel has left at a step once every CTA has launched: per SM,
// per warp slot, the instructions its warp has still to issue.
struct WorkLeft {
  uint64_t cycle = 0;
  std::vector<std::vector<uint64_t>> left;
};

// The chip's sustained L2 and DRAM bandwidth, bytes per SM cycle (0:
// unknown), shared by the kernel's SMs, and the L2's capacity in bytes (0:
// unknown, taken as filled from the start).
struct ChipMemory {
  double l2 = 0;
  double dram = 0;
  double l2_capacity = 0;
};

// Where PKP stops a kernel: the cycles it still needs, and the estimated
// relative error of the kernel's projected cycles.
struct PkpStop {
  uint64_t remaining_cycles = 0;
  double error_frac = 0;
};

class Pkp {
 public:
  // The IPC is sampled kSamples times per window (cumulative IPC of the
  // kernel; the paper's per-cycle series, thinned so skipped cycles cost
  // nothing).
  static constexpr uint64_t kSamples = 30;

  // `cta_insts`: per simulated SM, the trace's warp instructions of its
  // CTAs in launch order; `slots`: the CTAs an SM holds at once.
  Pkp(const PkpOptions& opt, std::vector<std::vector<uint64_t>> cta_insts, unsigned slots,
      ChipMemory chip = {});
  // Cycles between samples.
  uint64_t interval() const { return interval_; }
  // Feeds the kernel's progress up to `cycle` (per SM, as `cta_insts`);
  // where it may stop, how.
  std::optional<PkpStop> step(uint64_t cycle, const std::vector<SmProgress>& sms);

 private:
  // A wave boundary: when (kernel cycle) and how far (instructions, in
  // all and per SM).
  struct Mark {
    uint64_t cycle = 0;
    uint64_t insts = 0;
    std::vector<uint64_t> sm_insts;
    double l2 = 0, dram = 0;  // bytes moved, all SMs
    double l2_reads = 0, l2_read_misses = 0;  // sectors, all SMs
  };
  std::optional<PkpStop> wave_step(uint64_t cycle, const std::vector<SmProgress>& sms);
  bool ipc_quasi_stable(uint64_t cycle, uint64_t insts);
  std::optional<PkpStop> project(uint64_t cycle, const std::vector<SmProgress>& sms) const;
  // The cycles left, between the projection's two limits, and half their
  // gap; the gap between the last wave's rate and the rate projected with.
  struct Tail {
    double remaining = 0;
    double half_gap = 0;
    double rate_gap = 0;
  };
  // Whether the kernel moves the bytes `moved` counts at the chip's `rate`.
  bool at_chip_rate(double ChipMemory::*rate, double Mark::*moved) const;
  // The first wave mark by which the DRAM has moved the L2's capacity,
  // the first wave's end at the earliest (the first where the L2 serves
  // no hits); none yet.
  std::optional<size_t> l2_filled_mark() const;
  std::optional<Tail> per_sm_tail(uint64_t cycle, const std::vector<SmProgress>& sms) const;
  // At the chip's rate since the first wave's end, once two waves have run
  // since the mark `warm`.
  std::optional<Tail> throughput_tail(const std::vector<SmProgress>& sms, size_t warm) const;
  std::optional<PkpStop> drain_step(uint64_t cycle, const std::vector<SmProgress>& sms);

  PkpOptions opt_;
  std::vector<std::vector<uint64_t>> cta_insts_;
  unsigned slots_;
  ChipMemory chip_;
  uint64_t wave_ = 0;        // CTAs that fill the simulated SMs once
  uint64_t total_ctas_ = 0;
  uint64_t interval_;
  uint64_t next_sample_;
  std::deque<double> samples_;
  std::vector<Mark> waves_;  // the kernel's start, then each wave's end
  std::deque<WorkLeft> drain_;  // the last two windows' steps since every CTA launched
};

// The drain rule's projection at `c` from the steps a window (`b`) and
// two (`a`) before, over `window` cycles: per SM, the rate of its warps
// still running at `c` from `b` to `c`, and its change from `a` to `b`;
// none where an SM with warps left made no progress from `b`, or within
// the last window.
std::optional<PkpStop> project_drain(const WorkLeft& a, const WorkLeft& b, const WorkLeft& c, uint64_t window);

// The cycles one SM needs for its CTAs still to run, each CTA at `cta_rate`
// warp instructions per cycle however many share the SM (`slots` at most):
// `resident_left` instructions of the CTAs it holds, shared among them in
// proportion to their size, then `queued` in launch order.
double drain_cycles(const std::vector<uint64_t>& resident, uint64_t resident_left, const std::vector<uint64_t>& queued,
                    unsigned slots, double cta_rate);

}  // namespace sasskit::pipesim
