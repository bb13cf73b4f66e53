// The fixture's report, as gather reads it, and validations of it: what
// report_test.cpp and plot_test.cpp start from.
#pragma once

#include <sstream>
#include <vector>

#include "fixture.hpp"
#include "gather.hpp"
#include "metrics.hpp"
#include "validate.hpp"

namespace sasskit::testing {

inline stallreport::Report report(const FixtureOptions& o, size_t top = 5) {
  std::istringstream in(fixture_stream(o));
  return stallreport::gather_members(in, "in.stream", {top}).front().report;
}

inline double type_cycles(const Metrics& m, StallType t) { return m.stall_type[size_t(t)]; }

// Two runs of the fixture, validated against references 20% and 50% above
// their simulated cycles.
inline std::vector<stallreport::Validation> two_validated_runs() {
  using namespace stallreport;
  std::vector<Validation> runs;
  for (double over : {1.2, 1.5}) {
    Report r = report({});
    r.run = over < 1.3 ? "a" : "b";
    ReferenceKernel k;
    k.id = 1;
    k.metrics[size_t(RefMetric::Cycles)] = r.kernels[0].m.cycles * over;
    k.metrics[size_t(RefMetric::L1HitRate)] = 0.5;
    runs.push_back(validate(r, Reference{"plain", {k}}, r.run + ".csv"));
  }
  return runs;
}

}  // namespace sasskit::testing
