// --reference: the simulated kernels against measured (or other simulators')
// statistics, per metric, as in HyFiSS Table IV.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/reference_stats.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

struct MetricPair {
  uint32_t kernel_id = 0;
  std::string name;
  double simulated = 0, reference = 0;
};

struct MetricValidation {
  RefMetric metric;
  std::vector<MetricPair> pairs;
  std::optional<double> error;  // MAPE (%) for counts, MAE (percentage points) for fractions
  std::optional<double> corr;
};

struct Validation {
  std::string reference;  // file name
  std::string format;     // the reference layout recognised
  size_t matched = 0;     // kernels matched
  std::vector<MetricValidation> metrics;  // those with at least one pair
};

// Matches kernels by launch number where the reference numbers launches and
// the names agree, else by name (the n-th launch of a name with the n-th),
// names compared as base names (mangled, demangled or short alike); a
// summary row stands for every launch of its name. Fails (exit 1) when none
// match.
Validation validate(const Report& rep, const Reference& ref, const std::string& ref_name);

const char* error_kind(RefMetric m);  // "MAPE" or "MAE"
const char* error_key(RefMetric m);   // its JSON key: "error_pct" (MAPE) or "error_pp" (MAE)
const char* error_unit(RefMetric m);  // "%" or " pp"

void write_validation_text(std::ostream& out, const Validation& v);
// metric,kernel_id,kernel_name,simulated,reference,rel_error_pct,abs_error_pp
// rows: counts and ratios have a relative error in percent, fractions an
// absolute one in percentage points.
void write_validation_csv(std::ostream& out, const Validation& v);

}  // namespace sasskit::stallreport
