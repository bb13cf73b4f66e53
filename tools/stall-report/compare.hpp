// `stall-report A B ...` in text: N runs side by side, the
// design-space-exploration view of HyFiSS §VI-E: per kernel (matched by id,
// else name) and for the application, each run's speed-up over the first
// (the baseline) with its range, each metric and each stall type's share,
// with each run's delta from the baseline.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "columns.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

struct CompareRow {
  std::string metric;
  Kind kind;
  std::vector<std::optional<double>> values;  // one per run
  // Run i minus the baseline (run 0).
  std::optional<double> delta(size_t i) const;
  // Relative change from the baseline in percent for counts and ratios;
  // empty for fractions.
  std::optional<double> change(size_t i) const;
};

// How a run has the baseline's kernel. A run that did not simulate it (a
// plan's run, one made with trace-unpack --kernels) may have simulated
// another launch of its name: that one's values stand in, marked.
struct RunKernel {
  enum Kind { Simulated, StandIn, Missing } kind = Simulated;
  uint32_t id = 0;  // StandIn: the id of the kernel whose values stand in
};

// A run's cycles of a scope and their relative error estimate
// (relative_error()), where known.
struct ScopeCycles {
  std::optional<double> cycles;
  std::optional<double> error_frac;
};

// The speed-up of a design point over the baseline, baseline cycles / its
// cycles, and the relative half-width of its range: the two runs' error
// estimates added (to first order the relative errors of a ratio add; none
// is assumed to cancel the other). No range where neither run has one.
struct Speedup {
  double value = 0;
  std::optional<double> range_frac;
};

struct CompareScope {
  std::optional<uint32_t> id;  // kernel id; empty for the application
  std::string name;
  std::vector<CompareRow> rows;
  std::vector<RunKernel> in_runs;  // per run; all Simulated for the application
  std::vector<ScopeCycles> cycles;  // per run
  // Run `i`'s speed-up over run 0; empty where either has no cycles.
  std::optional<Speedup> speedup(size_t i) const;
};

struct Comparison {
  std::vector<std::string> runs;       // "label (gpu; config)" per run
  std::vector<CompareScope> scopes;    // the baseline's kernels, then the application
  std::vector<std::string> unmatched;  // "only in b: kernel 3 name" style notes
  std::vector<std::string> plan_methods;  // per run: its plan's method, empty without a plan
};

// `k`'s match in `r`: the same id and name, else the first of that name
// (another launch of the kernel).
const KernelReport* find_kernel(const Report& r, const KernelReport& k);

Comparison compare(const std::vector<Report>& runs);

// The speed-up table first (per scope, each design point over the
// baseline), then per scope every metric of every run and its delta.
void write_compare_text(std::ostream& out, const Comparison& c);

}  // namespace sasskit::stallreport
