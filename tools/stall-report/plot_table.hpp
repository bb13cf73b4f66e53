// The numbers a plot draws, as tables: one row per bar, one column per
// stacked segment. Separate from plot.cpp (the gnuplot script) so the
// numbers can be tested without gnuplot.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report.hpp"
#include "validate.hpp"

namespace sasskit::stallreport {

struct PlotRow {
  std::string label;  // already reduced by plot_label()
  std::vector<double> values;
  // The +- half-width of an error bar on the stack's height, where one is
  // known: the stack's CTA sampling error estimate (its magnitude), plus
  // the plan's relative error bound on application stacks, times the
  // height.
  std::optional<double> error = std::nullopt;
};

// Bars drawn side by side under one group title (a kernel in a comparison);
// a single-run chart has one untitled group.
struct PlotGroup {
  std::string title;
  std::vector<PlotRow> rows;
};

struct PlotTable {
  std::string title, ylabel;
  std::vector<std::string> series;  // segment names, one per value
  std::vector<PlotGroup> groups;
  int first_linetype = 1;  // the first segment's colour (2: a stall type keeps its CPI-stack colour)
  std::string error_title = "error estimate";  // the error bars' key entry
};

// Text from an input reduced to a safe subset for gnuplot: printable ASCII
// without quotes, backquotes, backslashes, '$', '@', '!', '<', '>' or '&'
// (each becomes '?'), cut to `max` characters. Kernel names and file names
// pass through it, so no input can end a data block, reach gnuplot's shell
// escapes or end the markup of an SVG (a "]]>" ends gnuplot's CDATA).
std::string plot_label(std::string_view text, size_t max = 40);

// Kernel bars shown before the rest is merged into one "other" bar.
inline constexpr size_t kPlotKernels = 12;

// Absolute CPI stacks per warp scheduler: cycles per warp instruction,
// split into issue (1 per instruction) and stall cycles by root type. One
// bar per kernel (heaviest first), "other", and the application.
PlotTable cpi_stack_table(const Report& rep);
// The same split in scheduler cycles, weighted by the plan: how much of
// the application each kernel is, and why.
PlotTable cycle_stack_table(const Report& rep);
// Execution-unit busy time, percent of the row's busy cycles per unit.
PlotTable unit_busy_table(const Report& rep);

// N runs: per group (the application, then the first run's heaviest
// kernels) one CPI-stack bar per run, labelled with the run's label.
PlotTable compare_cpi_table(const std::vector<Report>& runs);
// N runs: the application's scheduler cycles split as above, one bar per
// run, labelled "number label".
PlotTable compare_cycle_table(const std::vector<Report>& runs);

// N runs: the application's cycles (summed over its kernels, plan weights
// applied) per run and its speedup over the first run.
struct RunCycles {
  std::string label;  // "number label", as in compare_cycle_table
  double cycles = 0;  // in the chart's unit (ylabel)
  std::string speedup;  // "1.25x"; "-" where a run has no cycles
  std::optional<double> error = std::nullopt;  // as PlotRow::error
};
struct SpeedupChart {
  std::string title, ylabel;
  std::vector<RunCycles> runs;
};
SpeedupChart speedup_chart(const std::vector<Report>& runs);

// N runs: per group (the application, then the first run's heaviest
// kernels) each design point's speed-up over the first run (compare.hpp),
// one bar per run after the first, with its range as the error bar; a run
// without the kernel has a bar of 0.
PlotTable compare_speedup_table(const std::vector<Report>& runs);

// --reference with stall reasons: per kernel (up to kPlotKernels) a group
// of two bars, simulated and reference, each the shares (%) of the six
// compared stall types; kernels of several runs (a suite) are titled
// "RUN: ID NAME".
PlotTable stall_comparison_table(const std::vector<StallComparison>& stalls);

// --reference: per metric the kernels' (reference, simulated) points.
struct ScatterPoint {
  double reference = 0, simulated = 0;
  std::string label;  // "id name"; empty where the panel leaves the point unlabelled
};
struct ScatterSeries {
  std::string metric;  // "cycles", ...: the panel's title
  std::vector<ScatterPoint> points;
  std::string stats;  // printed on the panel: "MAPE 12.5%, r 0.98, n 6"
  std::string unit;   // the axes' unit: "cycles", "fraction", ...
  bool log = false;   // counts and rates: log-log axes where every value is positive
};
// Points labelled on a panel: all of them up to this many, else this many
// of those farthest from y = x (relative to the reference for counts,
// absolute for fractions), the outliers a reader asks about.
inline constexpr size_t kScatterLabels = 6;
// One panel per metric (stall shares left to stall_comparison_table), for
// one run or a suite's pooled validation (pool_validations): Accel-Sim's
// correlator's panels.
std::vector<ScatterSeries> validation_scatter(const Validation& v);

}  // namespace sasskit::stallreport
