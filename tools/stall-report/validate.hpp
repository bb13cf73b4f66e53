// --reference: the simulated kernels against measured (or other simulators')
// statistics, per metric, as in HyFiSS Table IV.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/reference_stats.hpp"
#include "libcommon/json.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

struct MetricPair {
  uint32_t kernel_id = 0;
  std::string name;
  double simulated = 0, reference = 0;
  std::string run;  // the run's label (a suite pools several runs)
};

struct MetricValidation {
  RefMetric metric;
  std::vector<MetricPair> pairs;
  std::optional<double> error;  // MAPE (%) for counts, MAE (percentage points) for fractions
  std::optional<double> corr;
  // Counts only: the sums over the matched kernels (kernel_id 0, name
  // "(application)").
  std::optional<MetricPair> application;
};

// One kernel's stall distribution beside the reference's, as shares of the
// stall cycles of the compared types (kComparedStallTypes).
struct StallComparison {
  uint32_t kernel_id = 0;
  std::string name;
  std::string run;     // the run's label
  std::string source;  // the reference's metric family
  std::array<double, kComparedStallTypes.size()> simulated{}, reference{};
  double simulated_left_out = 0;  // Idle and Other: share of the simulated stall cycles
  double reference_left_out = 0;  // reasons with no stall type: share of the reference's
  double distance = 0;            // total variation: half the summed absolute differences
};

struct Validation {
  std::string reference;  // file name
  std::string format;     // the reference layout recognised
  std::string run, gpu;   // the validated run's label and GPU model
  size_t matched = 0;     // kernels matched
  std::vector<MetricValidation> metrics;  // those with at least one pair
  std::vector<RefMetric> missing;      // modelled, but no matched reference kernel has it
  std::vector<RefMetric> unsimulated;  // in the reference, but not in the run (e.g. L2 without rd-cache)
  std::vector<StallComparison> stalls;  // kernels whose reference has stall reasons
};

// Matches kernels by launch number where the reference numbers launches and
// the names agree, else by name (the n-th launch of a name with the n-th),
// names compared as base names (mangled, demangled or short alike); a
// summary row stands for every launch of its name. Fails (exit 1) when none
// match.
Validation validate(const Report& rep, const Reference& ref, const std::string& ref_name);

// Each run validated against its reference: one file per run, in order, or
// one file that holds several applications (a multi-process ncu export) for
// as many runs, each run labelled by its application's name (with or without
// directory and extension, or that name then "/..."), its kernels matched
// within that application.
// Usage error when the counts or the labels do not fit.
std::vector<Validation> validate_runs(const std::vector<Report>& runs, const std::vector<std::string>& files,
                                      const profile::ReadOptions& options);

// Several runs, each validated against its own reference, pooled per
// metric: the suite's errors and correlations over every matched kernel.
// `reference` and `format` say how many references there were.
Validation pool_validations(const std::vector<Validation>& runs);

const char* error_kind(RefMetric m);  // "MAPE" or "MAE"
const char* error_key(RefMetric m);   // its JSON key: "error_pct" (MAPE) or "error_pp" (MAE)
const char* error_unit(RefMetric m);  // "%" or " pp"

void write_validation_text(std::ostream& out, const Validation& v);
// The pooled table of pool_validations and, per run, each metric's error.
void write_suite_text(std::ostream& out, const std::vector<Validation>& runs, const Validation& suite);
// "missing" and "unsimulated": arrays of metric names.
void write_validation_gaps_json(JsonWriter& w, const Validation& v);
// run,gpu,metric,kernel_id,kernel_name,simulated,reference,rel_error_pct,abs_error_pp
// rows: counts and ratios have a relative error in percent, fractions an
// absolute one in percentage points; a count's application row has no
// kernel_id; a stall_distance row per kernel gives the total variation
// distance of the stall shares in abs_error_pp.
void write_validation_csv(std::ostream& out, const Validation& v, bool header = true);

}  // namespace sasskit::stallreport
