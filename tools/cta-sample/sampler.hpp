// Choosing the SM(s) whose CTA-set to simulate (HyFiSS §III-C): the SM
// predicted to take longest, the K longest, or one forced by the user.
#pragma once

#include <optional>
#include <vector>

#include "formats/sample_record.hpp"
#include "libcommon/cta_schedule.hpp"
#include "formats/trace.hpp"
#include "libcommon/nonstall.hpp"

namespace sasskit::ctasample {

struct SampleOptions {
  bool keep_all = false;            // schedule only: keep every CTA, no sample record
  std::optional<unsigned> force_sm; // --sm N
  unsigned top = 1;                 // --top K
};

// Each SM's CTA-set non-stall time (Eq. 2 over the sum of its CTAs' counts).
std::vector<double> predict_per_sm(const NonStallModel& model, const KernelSchedule& schedule,
                                   const std::vector<UnitCounts>& cta_counts, unsigned num_sms);

// The sample of one kernel: the chosen SMs (longest first; ties to the lower
// SM id; SMs without CTAs are never chosen unless forced), their CTAs, and
// the instruction counts of the kernel, of each SM and of the sample, and
// the sampling error estimate (formats/sample_record.hpp).
KernelSample choose_sample(const KernelSchedule& schedule, const std::vector<UnitCounts>& cta_counts,
                           const std::vector<double>& predicted, const SampleOptions& options);

}  // namespace sasskit::ctasample
