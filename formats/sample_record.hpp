// The `sample` record (formats/STREAM.md): which CTAs cta-sample kept of a
// kernel, why, and the instruction counts that scale the sample back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/stream.hpp"

namespace sasskit {

struct KernelSample {
  uint32_t kernel_id = 0;
  std::string selection;                 // "max", "top" or "sm" (forced with --sm)
  std::vector<uint32_t> sms;             // the SMs kept, longest predicted first
  std::vector<uint32_t> ctas;            // the CTAs kept (linear index), in launch order
  std::vector<double> predicted_cycles;  // per SM of the model: non-stall time, HyFiSS Eq. 2
  uint64_t kernel_insts = 0;             // warp instructions of the whole kernel
  uint64_t sample_insts = 0;             // warp instructions of the CTAs kept
  uint32_t kernel_ctas = 0;              // CTAs of the whole kernel
  std::vector<uint64_t> sm_insts;        // per SM of the model: warp instructions of its CTA-set (2.1)
  // The estimated relative error of counts scaled by kernel_insts /
  // sample_insts (sampling_error(); 2.1; absent in older records).
  std::optional<double> sampling_error;
  // Of `sms`, the one kept as a check (cta-sample --estimate check, 2.7):
  // the SM predicted shortest, simulated and scaled with the rest so that
  // the spread of the kept SMs' measured cycles per instruction can say
  // how far the sample is off (check_sampling_error()).
  std::optional<uint32_t> check_sm;
  std::string gpu;                       // the GPU model it was computed for (empty: unnamed, before 2.1)
  bool operator==(const KernelSample&) const = default;
};

// The sample's error on HyFiSS's own prediction (cta-sample(1), SAMPLING
// ERROR): scaling the kept SMs' predicted non-stall cycles by kernel_insts /
// sample_insts, as a report scales the simulated counts, against the sum
// over every SM's prediction: (Σ_kept P / Σ_kept N) / (Σ P / Σ N) − 1, with
// P = predicted_cycles and N = sm_insts. Signed: positive when the kept
// SMs take more predicted cycles per instruction than the kernel. nullopt
// when the kernel or the sample has no instructions or no predicted time.
std::optional<double> sampling_error(const std::vector<double>& predicted_cycles,
                                     const std::vector<uint64_t>& sm_insts, const std::vector<uint32_t>& kept_sms);

// The kept SMs as simulated: their warp instructions and scheduler cycles
// (insts + stall cycles).
struct KeptSm {
  uint32_t sm = 0;
  double insts = 0;
  double sched_cycles = 0;
};

// The sample's error estimated from what was simulated (cta-sample(1),
// SAMPLING ERROR, check): P, the kept SMs' scheduler cycles per
// instruction together, stands for the SMs left out, whose mean c is taken
// within two standard errors of the kept SMs' mean, the deviation estimated
// from the kept SMs' own spread (the kept SMs include those predicted
// longest and shortest); the error of scaling by kernel_insts /
// sample_insts is then P N / (P N_kept + c N_rest) - 1; the end of that
// range furthest from 0, signed. nullopt without a check SM, with fewer
// than two kept SMs, or when a kept SM is missing from `kept` or issued
// nothing.
std::optional<double> check_sampling_error(const KernelSample& sample, const std::vector<KeptSm>& kept);

// One kernel's part of a sum of cycles: its (weighted, sample-projected)
// cycles, whether they come from a CTA sample, and the sample's estimate.
struct SampledCycles {
  double cycles = 0;
  bool sampled = false;
  std::optional<double> error;
};

// The signed relative error of Σ cycles when each kernel's are off by its
// estimate e (unsampled kernels: 0): Σ C / Σ (C / (1 + e)) − 1. nullopt
// when no kernel is sampled or a sampled one has no estimate (a record
// before 2.1).
std::optional<double> combined_sampling_error(const std::vector<SampledCycles>& kernels);

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<KernelSample> {
  static constexpr RecordType type = RecordType::Sample;
  static void pack(Packer& pk, const KernelSample& s);
  static KernelSample unpack(const Record& r);
};

}  // namespace sasskit::stream
