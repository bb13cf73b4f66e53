// stall-report's plots: the tables they chart and the gnuplot scripts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "compare.hpp"
#include "libcommon/diag.hpp"
#include "plot.hpp"
#include "plot_table.hpp"
#include "reports.hpp"
#include "validate.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;
using sasskit::testing::report;
using sasskit::testing::two_validated_runs;

TEST(Plot, CpiStackIsCyclesPerWarpInstructionHeaviestKernelFirst) {
  PlotTable t = cpi_stack_table(report({}));
  ASSERT_EQ(t.groups.size(), 1u);
  const auto& rows = t.groups[0].rows;
  ASSERT_EQ(rows.size(), 3u);  // gemm (heavier), vecAdd, application
  EXPECT_EQ(rows[0].label, "2 gemm");
  EXPECT_EQ(rows[1].label, "1 vecAdd");
  EXPECT_EQ(rows[2].label, "application");
  EXPECT_EQ(t.series[0], "issue");
  EXPECT_DOUBLE_EQ(rows[1].values[0], 1);  // one issue cycle per instruction
  EXPECT_DOUBLE_EQ(rows[1].values[1 + size_t(StallType::MemData)], 600.0 / 400);
}

TEST(Plot, CycleStackWeighsKernelsByThePlan) {
  Report r = report({.plan = true});
  PlotTable t = cycle_stack_table(r);
  const auto& vecadd = t.groups[0].rows[1];
  ASSERT_EQ(vecadd.label, "1 vecAdd");
  EXPECT_EQ(t.ylabel, "scheduler cycles (thousands)");
  EXPECT_DOUBLE_EQ(vecadd.values[0], 3 * 400 / 1000.0);  // weight 3
  EXPECT_EQ(t.groups[0].rows.back().label, "application (projected)");
  EXPECT_EQ(t.title, "Scheduler cycles of the application by kernel (plan weights applied)");
  EXPECT_EQ(cycle_stack_table(report({})).title, "Scheduler cycles of the application by kernel");  // no plan
}

TEST(Plot, ComparisonHasOneBarPerRunPerKernel) {
  std::vector<Report> runs{report({}), report({.variant_b = true})};
  runs[0].run = "base";
  runs[1].run = "fast";
  PlotTable t = compare_cpi_table(runs);
  EXPECT_EQ(t.groups[0].rows[1].label, "fast");  // runs named in every group
  ASSERT_EQ(t.groups.size(), 3u);  // application, gemm, vecAdd
  EXPECT_EQ(t.groups[0].title, "application");
  EXPECT_EQ(t.groups[2].title, "1 vecAdd");
  ASSERT_EQ(t.groups[2].rows.size(), 2u);
  EXPECT_DOUBLE_EQ(t.groups[2].rows[0].values[1 + size_t(StallType::MemData)], 600.0 / 400);
  EXPECT_DOUBLE_EQ(t.groups[2].rows[1].values[1 + size_t(StallType::MemData)], 400.0 / 400);
}

TEST(Plot, ComparisonChartsApplicationCyclesAndSpeedupPerRun) {
  std::vector<Report> runs{report({}), report({.variant_b = true})};
  runs[0].run = "base";
  runs[1].run = "fast";
  const SpeedupChart c = speedup_chart(runs);
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.title, "Application cycles per run and speedup over 1 base");
  EXPECT_EQ(c.runs[1].label, "2 fast");
  EXPECT_DOUBLE_EQ(c.runs[0].cycles, runs[0].totals.cycles);  // below 10,000: no thousands
  EXPECT_EQ(c.ylabel, "cycles");
  EXPECT_EQ(c.runs[0].speedup, "1.00x");
  char expected[16];
  std::snprintf(expected, sizeof expected, "%.2fx", runs[0].totals.cycles / runs[1].totals.cycles);
  EXPECT_EQ(c.runs[1].speedup, expected);
  EXPECT_NE(c.runs[1].speedup, "1.00x");  // variant b is faster
  const std::string script = compare_plot_script(runs, "svg", "c.svg");
  EXPECT_NE(script.find("set title 'Application cycles per run and speedup over 1 base'"), std::string::npos);
  EXPECT_NE(script.find("using 0:($2+$3):4 with labels"), std::string::npos) << script;  // the speedups
  // Every chart's plot area starts and ends at the same place.
  size_t charts = 0;
  const std::string margins = "set lmargin at screen 0.07\nset rmargin at screen 0.84\n";
  for (size_t at = 0; (at = script.find(margins, at)) != std::string::npos; ++at) ++charts;
  EXPECT_EQ(charts, 4u);  // and the speed-ups per kernel
}

TEST(Plot, LabelsFromInputsCannotReachGnuplotCommands) {
  EXPECT_EQ(plot_label("a\nEOD\n!touch x `id` $v @m 'q\""), "a?EOD??touch x ?id? ?v ?m ?q?");
  Report r = report({.vecadd_name = "x\nEOD\n!touch pwned\n"});
  std::string s = plot_script(r, nullptr, "svg", "it's.svg");
  EXPECT_EQ(s.find("\n!"), std::string::npos) << s;
  EXPECT_NE(s.find("set output 'it''s.svg'"), std::string::npos) << s;
  EXPECT_EQ(s.find('`'), std::string::npos);
  EXPECT_EQ(plot_terminal("a.png"), "pngcairo");
  EXPECT_EQ(plot_terminal("a.pdf"), "pdfcairo");
  EXPECT_EQ(plot_terminal("a.gp"), "svg");  // the script draws a.svg
  EXPECT_THROW(plot_terminal("a.eps"), Error);
  EXPECT_THROW(plot_terminal("a\n.svg"), Error);
}

TEST(Plot, PlanErrorBoundBecomesAnErrorBarOnTheApplication) {
  Report r = report({.plan = true});
  EXPECT_EQ(plot_script(r, nullptr, "svg", "a.svg").find("error estimate"), std::string::npos);  // no bound stated
  r.plan_error_bound = 0.1;
  PlotTable t = cycle_stack_table(r);
  const PlotRow& app = t.groups[0].rows.back();
  double height = 0;
  for (double v : app.values) height += v;
  ASSERT_TRUE(app.error);
  EXPECT_DOUBLE_EQ(*app.error, 0.1 * height);
  EXPECT_FALSE(t.groups[0].rows.front().error);  // kernels have none
  EXPECT_TRUE(compare_cpi_table({r, report({})}).groups[0].rows[0].error);
  EXPECT_FALSE(compare_cpi_table({r, report({})}).groups[0].rows[1].error);
  // One key entry, after the segments' (not after each group's blank line).
  const std::string script = plot_script(r, nullptr, "svg", "a.svg");
  EXPECT_NE(script.find("title columnheader(i), keyentry with vectors"), std::string::npos) << script;
}

TEST(Plot, SamplingErrorBecomesErrorBarsOnTheSampledKernelAndTheApplication) {
  Report r = report({.plan = true, .sample = true});
  r.plan_error_bound = 0.05;
  PlotTable t = cpi_stack_table(r);
  auto height = [](const PlotRow& row) {
    double h = 0;
    for (double v : row.values) h += v;
    return h;
  };
  const auto& rows = t.groups[0].rows;
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_EQ(rows[0].label, "2 gemm");
  ASSERT_TRUE(rows[0].error);
  EXPECT_NEAR(*rows[0].error, 0.1 * height(rows[0]), 1e-9);
  EXPECT_FALSE(rows[1].error);  // vecAdd: not sampled
  ASSERT_TRUE(rows[2].error);
  EXPECT_NEAR(*rows[2].error, (std::fabs(*r.totals.sampling_error) + 0.05) * height(rows[2]), 1e-9);
  // In a comparison, the sampled kernel's group has them too, drawn where
  // the group's bars are: groups start after the previous one and a gap.
  const PlotTable c = compare_cpi_table({report({}), r});
  ASSERT_EQ(c.groups[1].title, "2 gemm");
  EXPECT_FALSE(c.groups[1].rows[0].error);  // the first run did not sample
  ASSERT_TRUE(c.groups[1].rows[1].error);
  EXPECT_NEAR(*c.groups[1].rows[1].error, 0.1 * height(c.groups[1].rows[1]), 1e-9);
  const std::string script = compare_plot_script({report({}), r}, "svg", "c.svg");
  EXPECT_NE(script.find("newhistogram '2 gemm' lt 1 at 2,"), std::string::npos) << script;
  EXPECT_NE(script.find("\n4 "), std::string::npos) << script;  // gemm's second bar: x = 3 + 1
}

// The error bars' key names the CTA sample's estimate method.
TEST(Plot, ErrorBarsKeyNamesTheSamplingMethod) {
  Report r = report({.sample = true});
  EXPECT_EQ(cpi_stack_table(r).error_title, "error estimate (CTA sampling: limits)");
  r.totals.sampling_method = SamplingMethod::Check;
  EXPECT_EQ(cycle_stack_table(r).error_title, "error estimate (CTA sampling: check)");
  const std::string script = plot_script(r, nullptr, "svg", "a.svg");
  EXPECT_NE(script.find("title 'error estimate (CTA sampling: check)'"), std::string::npos) << script;
  EXPECT_EQ(cpi_stack_table(report({})).error_title, "error estimate");  // nothing sampled
}

TEST(Plot, CorrelationPanelsCarryErrorCorrelationCountAndUnit) {
  const Validation suite = pool_validations(two_validated_runs());
  const auto panels = validation_scatter(suite);
  ASSERT_EQ(panels.size(), 2u);
  EXPECT_EQ(panels[0].metric, "cycles");
  EXPECT_EQ(panels[0].stats.rfind("MAPE 25%, r ", 0), 0u) << panels[0].stats;
  EXPECT_NE(panels[0].stats.find(", n 2"), std::string::npos);
  EXPECT_TRUE(panels[0].log);
  EXPECT_EQ(panels[0].unit, "cycles");
  EXPECT_EQ(panels[0].points[1].label, "b: 1 vecAdd");  // a suite's points name their run
  EXPECT_FALSE(panels[1].log);  // a hit rate stays linear
  const std::string script = correlation_plot_script(two_validated_runs(), "svg", "c.svg");
  EXPECT_NE(script.find("set logscale xy"), std::string::npos);
  EXPECT_NE(script.find("'reference (cycles)'"), std::string::npos);
  EXPECT_NE(script.find("title 'y = x'"), std::string::npos);
  EXPECT_NE(script.find("set title 'cycles'.\"\\n\".'MAPE 25%, r "), std::string::npos) << script;
  EXPECT_EQ(script.find("Stall reasons"), std::string::npos);  // plain references have none
}

TEST(Plot, SuitePlotSetsEachKernelsStallBarsBesideTheProfilers) {
  std::vector<Validation> runs = two_validated_runs();
  for (Validation& v : runs) {
    StallComparison c;
    c.kernel_id = 1;
    c.name = "_Z6vecAddPfS_S_i";
    c.run = v.run;
    c.simulated[1] = c.reference[1] = 1;  // all MemData
    v.stalls.push_back(c);
  }
  const PlotTable t = stall_comparison_table(runs.front().stalls);
  EXPECT_EQ(t.groups.at(0).title, "1 vecAdd");  // one run: the kernel alone
  const std::string script = correlation_plot_script(runs, "svg", "c.svg");
  EXPECT_NE(script.find("set title 'Stall reasons, simulated against the profiler''s'"), std::string::npos) << script;
  EXPECT_NE(script.find("newhistogram 'a: 1 vecAdd'"), std::string::npos) << script;
  EXPECT_NE(script.find("newhistogram 'b: 1 vecAdd'"), std::string::npos);
}

TEST(Plot, LinearTicksInThousandsKeepTheirHalves) {
  Report r = report({});
  ReferenceKernel a, b;  // a zero keeps the axes linear: 0 to 2000 in steps of 500
  a.id = 1, b.id = 2;
  a.metrics[size_t(RefMetric::Cycles)] = 0;
  b.metrics[size_t(RefMetric::Cycles)] = 1748;
  r.kernels[1].m.cycles = 1500;
  const Validation v = validate(r, Reference{"plain", {a, b}}, "ref.csv");
  const std::string script = plot_script(r, &v, "svg", "p.svg");
  EXPECT_NE(script.find("set xtics (\"0\" 0, \"500\" 500, \"1k\" 1000, \"1.5k\" 1500, \"2k\" 2000)"), std::string::npos)
      << script;
}

TEST(Plot, LabelsRunningIntoEachOtherOnOneLineShareOne) {
  // Three kernels with no simulated DRAM reads: labels left of the middle run
  // right, the one right of it runs left, all on the x axis.
  Validation v;
  MetricValidation mv{RefMetric::DramReadSectors, {}, {}, {}, {}};
  mv.pairs = {{1, "_Z4wmmaPf", 0, 0, "a"}, {2, "_Z6gatherPf", 0, 948, "b"}, {3, "_Z6vecaddPf", 0, 1748, "c"}};
  v.metrics.push_back(mv);
  const std::string s = plot_script(report({}), &v, "svg", "p.svg");
  const size_t from = s.find("$ref0 << EOD");
  const std::string data = s.substr(from, s.find("\nEOD\n", from) - from);
  // The label at 0 ends before the one at 948 starts; that one runs into the
  // one at 1748, which runs towards it. Said of both, it is longer than the
  // room right of 948 in the panel (one of 230 px: 38 characters across), so
  // its name is cut, not its count.
  EXPECT_NE(data.find("0 0 \"a: 1 wmma\" r\n948 0 \"b: 2 ... and 1 more\" r\n1748 0 \"\""), std::string::npos)
      << data;
}

TEST(Plot, ALabelNeverRunsPastItsPanelsEdge) {
  // A point near the middle with a label longer than the room on either side
  // of it: whole, it would run past the panel's edge (or, leftwards, over the
  // y tick labels); it is cut to the room on its roomier side.
  Validation v;
  MetricValidation mv{RefMetric::DramReadSectors, {}, {}, {}, {}};
  const std::string run = "a-run-label-far-longer-than-the-panel";
  mv.pairs = {{1, "_Z4wmmaPf", 0, 0, "a"}, {2, "_Z6gatherPf", 1100, 1100, run}, {3, "_Z6vecaddPf", 2000, 2000, "c"}};
  v.metrics.push_back(mv);
  const std::string s = plot_script(report({}), &v, "svg", "p.svg");
  const size_t from = s.find("$ref0 << EOD");
  const std::string data = s.substr(from, s.find("\nEOD\n", from) - from);
  // 1100 on axes of 0 to 2500 is 0.44 of the panel: 0.56 x 230 px / 6 px,
  // less the offset, is 20 characters, of the 26 in "a-run-label-far-: 2 gather".
  EXPECT_NE(s.find("set xrange [0:2500]"), std::string::npos);
  EXPECT_NE(data.find("1100 1100 \"a-run-label-far-:...\" r\n"), std::string::npos) << data;
  EXPECT_NE(s.find("strcol(4) eq 'r' ? strcol(3) : ''"), std::string::npos);
}

TEST(Plot, DecimalTicksAreFourIntervalsAtMost) {
  Report r = report({});
  ReferenceKernel a, b;  // a zero keeps the axes linear
  a.id = 1, b.id = 2;
  a.metrics[size_t(RefMetric::SmIpc)] = 0;
  b.metrics[size_t(RefMetric::SmIpc)] = 0.21;
  const Validation v = validate(r, Reference{"plain", {a, b}}, "ref.csv");
  const std::string script = plot_script(r, &v, "svg", "p.svg");
  // 0.05 steps would give six labels across a quarter of the canvas.
  EXPECT_NE(script.find("set xtics (0, 0.1, 0.2, 0.3)"), std::string::npos) << script;
}

namespace {

// A run of the fixture validated against a reference 20% above its cycles
// and with its instructions.
Validation validated_run() {
  Report r = report({});
  std::vector<ReferenceKernel> ks;
  for (const KernelReport& k : r.kernels) {
    ReferenceKernel ref;
    ref.id = k.id;
    ref.metrics[size_t(RefMetric::Cycles)] = k.m.cycles * 1.2;
    ref.metrics[size_t(RefMetric::Instructions)] = k.m.instructions;
    ref.metrics[size_t(RefMetric::L1HitRate)] = 0.5;
    ks.push_back(ref);
  }
  return validate(r, Reference{"plain", ks}, "ref.csv");
}

}  // namespace

TEST(Plot, ScatterOfOneRunIsLogLogWithEqualAxesDiagonalLabelsAndError) {
  const Validation v = validated_run();
  const std::string s = plot_script(report({}), &v, "svg", "a.svg");
  // cycles: vecAdd 1000 against 1200, gemm 5000 against 6000: whole decades, equal axes.
  const std::string cycles = s.substr(s.find("$ref0 << EOD"));
  EXPECT_NE(cycles.find("\"1 vecAdd\" l\n"), std::string::npos) << cycles;  // a label per kernel, leftwards
  EXPECT_NE(cycles.find("set size ratio 1 "), std::string::npos);
  EXPECT_NE(cycles.find("set logscale xy\n"), std::string::npos);
  EXPECT_NE(cycles.find("set xrange [99.9:10010]\nset yrange [99.9:10010]\n"), std::string::npos) << cycles;
  // Counts in thousands are labelled 1k, 10k.
  EXPECT_NE(cycles.find("set xtics (\"100\" 100, \"1k\" 1000, \"10k\" 10000)\n"), std::string::npos) << cycles;
  EXPECT_NE(cycles.find("'reference (cycles)'"), std::string::npos);
  EXPECT_NE(cycles.find("x with lines lt 8 dt 2 title 'y = x'"), std::string::npos);
  EXPECT_NE(cycles.find(".'MAPE 16.7%, r 1, n 2'"), std::string::npos) << cycles;
  EXPECT_NE(cycles.find("with labels"), std::string::npos);
  // A hit rate: linear from 0 to 1 on both axes, five steps.
  const std::string l1 = s.substr(s.find("set title 'l1_hit_rate'"));
  EXPECT_NE(l1.find("unset logscale\n"), std::string::npos);
  EXPECT_NE(l1.find("set xtics (0, 0.2, 0.4, 0.6, 0.8, 1)\n"), std::string::npos) << l1;
  EXPECT_NE(l1.find("'reference (fraction)'"), std::string::npos);
}

TEST(Plot, ManyKernelsLabelOnlyThoseFarthestFromTheDiagonal) {
  Validation v;
  MetricValidation mv{RefMetric::Cycles, {}};
  for (uint32_t id = 1; id <= kScatterLabels + 2; ++id)  // kernel 1 on y = x, kernel 2 1% off, the rest 10% or more
    mv.pairs.push_back({id, "k", 1000.0 * id * (id == 1 ? 1 : id == 2 ? 1.01 : 1 + 0.1 * id), 1000.0 * id});
  v.metrics.push_back(mv);
  const auto panels = validation_scatter(v);
  ASSERT_EQ(panels.size(), 1u);
  const auto& points = panels[0].points;
  EXPECT_EQ(points[0].label, "");
  EXPECT_EQ(points[1].label, "");
  EXPECT_EQ(points[2].label, "3 k");
  EXPECT_EQ(points.back().label, std::to_string(kScatterLabels + 2) + " k");
}

TEST(Plot, StallReasonsSideBySidePerKernel) {
  StallComparison c;
  c.kernel_id = 3;
  c.name = "_Z6vecAddPfS_S_i";
  c.simulated = {0, 0.5, 0, 0.25, 0, 0.25};
  c.reference = {0.1, 0.6, 0, 0.3, 0, 0};
  const PlotTable t = stall_comparison_table({c});
  ASSERT_EQ(t.series.size(), kComparedStallTypes.size());
  EXPECT_EQ(t.series[1], "MemData");
  EXPECT_EQ(t.first_linetype, 2);  // the CPI stacks' colours: issue is 1
  ASSERT_EQ(t.groups.size(), 1u);
  EXPECT_EQ(t.groups[0].title, "3 vecAdd");
  ASSERT_EQ(t.groups[0].rows.size(), 2u);
  EXPECT_EQ(t.groups[0].rows[1].label, "reference");
  EXPECT_DOUBLE_EQ(t.groups[0].rows[1].values[1], 60);
}
