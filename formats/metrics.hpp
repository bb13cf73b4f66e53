// The metrics of a kernel and of an application, as every report states
// them (stall-report(1), COLUMNS; pipe-sim --format json): one definition,
// so the tools cannot disagree on how a sampled kernel is scaled or a share
// is taken.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "formats/cache_record.hpp"
#include "formats/sample_record.hpp"
#include "formats/stats_record.hpp"

namespace sasskit {

enum class SamplingMethod { Limits, Check };
// "limits" or "check", as reports name them.
const char* sampling_method_name(SamplingMethod m);

// Metrics of one kernel or of the application; counts are projected
// (scaled by the sample and plan weights) where those records exist.
struct Metrics {
  double cycles = 0;        // active cycles
  double instructions = 0;  // warp instructions
  double sm_cycles = 0;     // active cycles summed over SMs
  double occupancy = 0;     // achieved, 0..1
  std::optional<double> l1_hit_rate, l2_hit_rate;
  std::optional<double> gmem_requests;
  double mem_requests = 0;  // pipe-sim's coalesced requests: weighs hit rates in totals
  // Memory traffic (rd-cache's model when a cache record exists, else
  // pipe-sim's): sectors sent from L1 to L2, DRAM sectors read and written,
  // and the extra shared-memory cycles of bank conflicts.
  double l2_sectors = 0, dram_read_sectors = 0, dram_write_sectors = 0;
  // Of the L2 sectors, those of stores; unknown from records before 2.5.
  std::optional<double> l2_write_sectors;
  double smem_conflict_cycles = 0;
  std::array<double, kStallTypes> stall_type{};
  std::array<double, kStallEvents> stall_event{};
  std::array<double, kUnitClasses> unit_busy{};
  std::array<double, kUnitClasses> unit_insts{};
  // CTA sampling: whether any CTA-sampled kernel contributes, and the
  // estimated signed relative error of the scheduler and stall cycles (so
  // of the CPI) that its sample scale projects (cta-sample(1), SAMPLING
  // ERROR); unknown when a sampled kernel's record states none (before 2.1).
  // The method that estimated it: the check SM's measured spread, else
  // cta-sample's widest limit (in totals, "limits" if any kernel's is).
  bool sampled = false;
  std::optional<double> sampling_error;
  SamplingMethod sampling_method = SamplingMethod::Limits;
  // PKP: the estimated relative error (a half-width, at least 0) of the
  // cycles it projected (pipe-sim(1), PROJECTION); in totals, of the
  // summed cycles, each projected kernel's off by its estimate the same
  // way. Unknown where no kernel was projected with an estimate.
  std::optional<double> projection_error;

  double ipc() const { return cycles > 0 ? instructions / cycles : 0; }
  double sm_ipc() const { return sm_cycles > 0 ? instructions / sm_cycles : 0; }
  // L2 sectors of loads and atomics: all but the stores'.
  std::optional<double> l2_read_sectors() const {
    return l2_write_sectors ? std::optional<double>(l2_sectors - *l2_write_sectors) : std::nullopt;
  }
  double stall_cycles() const;
};

// part / whole, 0 when whole is 0.
double share(double part, double whole);

// The kernel's warp instructions over those of the CTAs cta-sample kept
// (`sample`, its sample record): what the simulated counts are scaled by.
// 1 when the kernel was not CTA-sampled.
double sample_scale(const KernelSample* sample);

// One kernel's metrics from its stats record: counts scaled by its
// sample_scale (cycles are the simulated kernel's), instructions under PKP
// by the projection; hit rates, global memory requests and the traffic to
// L2 and DRAM from its cache record when it has one (scaled only where the
// record models the kept CTAs alone), else from pipe-sim's counters. The
// sampling error is check_sampling_error() of the kept SMs' simulated
// counts where the sample has a check SM, else the record's.
Metrics kernel_metrics(const KernelStats& ks, const KernelCacheModel* cache, const KernelSample* sample);

// A kernel's metrics and its plan weight (the invocations it stands for).
struct WeightedMetrics {
  const Metrics* m = nullptr;
  double weight = 1;
};

// Sums the kernels' counts times their weights. Occupancy is the
// weight-averaged kernel occupancy (HyFiSS §VI-B); hit rates are averaged
// over the kernels' memory requests (hits over requests, as HyFiSS §VI-B).
// The sampling error is that of the summed scheduler cycles when each
// kernel's are off by its estimate (combined_sampling_error).
// The projection error is that of the summed cycles.
Metrics application_totals(const std::vector<WeightedMetrics>& kernels);

}  // namespace sasskit
