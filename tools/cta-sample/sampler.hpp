// Choosing the SM(s) whose CTA-set to simulate (HyFiSS §III-C): the SM
// predicted to take longest, the K longest, or one forced by the user.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "formats/sample_record.hpp"
#include "libcommon/cta_schedule.hpp"
#include "libcommon/cta_unit_counts.hpp"
#include "formats/trace.hpp"
#include "libcommon/nonstall.hpp"

namespace sasskit::ctasample {

struct SampleOptions {
  bool keep_all = false;            // schedule only: keep every CTA, no sample record
  std::optional<unsigned> force_sm; // --sm N
  unsigned top = 1;                 // --top K
  // --estimate check (cta-sample's default): keep as well the SM predicted
  // shortest, so that the report can estimate the sample's error from what
  // the kept SMs measured.
  bool check = false;
};

// Each SM's CTA-set non-stall time (Eq. 2 over the sum of its CTAs' counts).
std::vector<double> predict_per_sm(const NonStallModel& model, const KernelSchedule& schedule,
                                   const CtaUnitCounts& cta_counts, unsigned num_sms);

// Each SM's time when its CTAs run `slots` at a time, each for its own
// `cta_time` whatever the others do: the CTAs in order of their start, each
// on the slot that frees first; the SM's time is when its last one ends.
std::vector<double> sm_makespans(const KernelSchedule& schedule, const std::function<double(uint32_t cta)>& cta_time,
                                 unsigned slots, unsigned num_sms);

// The sampling error estimate (cta-sample(1), SAMPLING ERROR): the error of
// the sample's instruction scaling (formats/sample_record.hpp's
// sampling_error) under each of three limits of an SM's time, its
// throughput (`predicted`, HyFiSS Eq. 2), CTAs bound by their own latency
// (each takes time in proportion to its instructions) and CTAs bound by a
// fixed cost (each takes the same time); the one furthest from 0.
std::optional<double> sampling_error_estimate(const KernelSchedule& schedule, const CtaUnitCounts& cta_counts,
                                              const std::vector<double>& predicted, const std::vector<uint64_t>& sm_insts,
                                              const std::vector<uint32_t>& kept_sms, unsigned slots);

// The sample of one kernel: the chosen SMs (longest first; ties to the lower
// SM id; SMs without CTAs are never chosen unless forced), with the check
// SM last (the shortest of the others with CTAs; ties to the lower id;
// none when no other SM has CTAs; kept but not named as the check when some
// SM holds more or fewer CTAs than every kept SM), their CTAs, and
// the instruction counts of the kernel, of each SM and of the sample, and
// the sampling error estimate for SMs holding `slots` CTAs at once.
KernelSample choose_sample(const KernelSchedule& schedule, const CtaUnitCounts& cta_counts,
                           const std::vector<double>& predicted, const SampleOptions& options, unsigned slots);

}  // namespace sasskit::ctasample
