#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "compare.hpp"
#include "fixture.hpp"
#include "gather.hpp"
#include "libcommon/diag.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "tests/support/error_of.hpp"
#include "plot.hpp"
#include "plot_table.hpp"
#include "validate.hpp"
#include "validation_stats.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;
using sasskit::testing::FixtureOptions;

namespace {

Report report(const FixtureOptions& o, size_t top = 5) {
  std::istringstream in(sasskit::testing::fixture_stream(o));
  return gather_members(in, "in.stream", {top}).front().report;
}

double type_cycles(const Metrics& m, StallType t) { return m.stall_type[size_t(t)]; }

}  // namespace

TEST(Gather, KernelMetricsFromStatsAndCache) {
  Report r = report({});
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_FALSE(r.projected);
  const Metrics& v = r.kernels[0].m;
  EXPECT_EQ(v.cycles, 1000);
  EXPECT_EQ(v.instructions, 400);
  EXPECT_DOUBLE_EQ(v.ipc(), 0.4);
  EXPECT_DOUBLE_EQ(v.sm_ipc(), 0.1);
  EXPECT_DOUBLE_EQ(v.occupancy, 0.25);
  EXPECT_DOUBLE_EQ(*v.l1_hit_rate, 0.6);  // no cache record: 1 - misses / requests
  EXPECT_FALSE(v.l2_hit_rate);
  EXPECT_EQ(v.stall_cycles(), 1000);
  const Metrics& g = r.kernels[1].m;
  EXPECT_DOUBLE_EQ(*g.l1_hit_rate, 0.75);  // from the cache record
  EXPECT_DOUBLE_EQ(*g.l2_hit_rate, 0.5);
  EXPECT_EQ(*g.gmem_requests, 800);
}

TEST(Gather, TopStalledPcsWithSassText) {
  Report r = report({}, 2);
  const auto& pcs = r.kernels[0].top_pcs;
  ASSERT_EQ(pcs.size(), 2u);
  EXPECT_EQ(pcs[0].pc, 0x30u);
  EXPECT_EQ(pcs[0].stall_cycles, 600u);
  EXPECT_DOUBLE_EQ(pcs[0].share, 0.6);
  EXPECT_EQ(pcs[0].main_type, StallType::MemData);
  EXPECT_EQ(pcs[0].sass, "FADD R5, R4, R1");
  EXPECT_EQ(pcs[1].sass, "LDG.E R4, R2");
  EXPECT_EQ(r.kernels[1].top_pcs[0].sass, "");  // no insts record for kernel 2
}

TEST(Gather, TotalsUsePlanWeightsAndSampleScales) {
  Report r = report({.plan = true, .sample = true});
  EXPECT_TRUE(r.projected);
  EXPECT_EQ(r.plan_method, "stem");
  EXPECT_EQ(r.kernels[0].weight, 3);
  EXPECT_EQ(r.kernels[1].sample_scale, 2);
  EXPECT_EQ(r.kernels[1].m.instructions, 40000);  // 20000 simulated, half the kernel
  EXPECT_EQ(r.kernels[1].m.cycles, 5000);         // the sampled SM is the longest: not scaled
  EXPECT_EQ(r.totals.cycles, 3 * 1000 + 5000);
  EXPECT_EQ(r.totals.instructions, 3 * 400 + 40000);
  EXPECT_EQ(type_cycles(r.totals, StallType::MemData), 3 * 600);
  EXPECT_EQ(type_cycles(r.totals, StallType::Sync), 2 * 1000);
  EXPECT_DOUBLE_EQ(r.totals.occupancy, (3 * 0.25 + 0.5) / 4);
  // Hit rates weigh each kernel by its memory requests (scaled and weighted).
  EXPECT_DOUBLE_EQ(*r.totals.l1_hit_rate, (0.6 * 300 + 0.75 * 12000) / 12300);
  EXPECT_DOUBLE_EQ(*r.totals.l2_hit_rate, 0.5);
  EXPECT_FALSE(r.totals.gmem_requests);  // kernel 1 has no cache record
}

TEST(Gather, SamplingErrorOfTheSampledKernelAndOfTheWeightedTotal) {
  Report r = report({.plan = true, .sample = true});
  EXPECT_FALSE(r.kernels[0].m.sampled);
  EXPECT_FALSE(r.kernels[0].m.sampling_error);
  ASSERT_TRUE(r.kernels[1].m.sampling_error);
  EXPECT_NEAR(*r.kernels[1].m.sampling_error, 0.1, 1e-12);
  // Scheduler cycles: vecAdd 3 x (400 + 1000) exact, gemm's (scaled) 10% too high.
  const double vecadd = 3 * (400 + 1000.0);
  const double gemm = r.kernels[1].m.instructions + r.kernels[1].m.stall_cycles();
  ASSERT_TRUE(r.totals.sampling_error);
  EXPECT_NEAR(*r.totals.sampling_error, (vecadd + gemm) / (vecadd + gemm / 1.1) - 1, 1e-12);
  EXPECT_FALSE(report({.plan = true}).totals.sampling_error);  // nothing sampled
}

TEST(Gather, SampledKernelWithoutAnEstimateLeavesTheTotalUnknown) {
  Report r = report({.sample = true});
  r.kernels[1].m.sampling_error.reset();  // a 2.0 sample record
  EXPECT_FALSE(application_totals(r.kernels).sampling_error);
  r.kernels[1].m.sampled = false;
  EXPECT_FALSE(application_totals(r.kernels).sampling_error);
  r.kernels[1].m.sampling_error = -0.5;
  r.kernels[1].m.sampled = true;
  r.kernels[0].weight = 0;
  EXPECT_DOUBLE_EQ(*application_totals(r.kernels).sampling_error, -0.5);  // only gemm counts
}

TEST(Gather, NoStatsIsBadInput) {
  std::istringstream in(sasskit::testing::fixture_stream({.stats = false}));
  try {
    gather_members(in, "in.stream", {});
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_EQ(e.where(), "in.stream");
  }
}

TEST(ValidationStats, MapeMaePearson) {
  EXPECT_DOUBLE_EQ(*mape({110, 90}, {100, 100}), 10);
  EXPECT_DOUBLE_EQ(*mape({5, 110}, {0, 100}), 10);  // a zero reference is left out
  EXPECT_FALSE(mape({5}, {0}));
  EXPECT_DOUBLE_EQ(*mae({0.5, 0.7}, {0.4, 0.4}), 0.2);
  EXPECT_NEAR(*pearson({1, 2, 3}, {2, 4, 6}), 1, 1e-12);
  EXPECT_NEAR(*pearson({1, 2, 3}, {3, 2, 1}), -1, 1e-12);
  EXPECT_FALSE(pearson({1}, {1}));
  EXPECT_FALSE(pearson({1, 1}, {2, 3}));
}

TEST(Validate, MatchesByIdThenNameAndComputesErrors) {
  Report r = report({});
  Reference ref{"plain", {}};
  ReferenceKernel a;
  a.id = 1;
  a.metrics[size_t(RefMetric::Cycles)] = 800;
  a.metrics[size_t(RefMetric::L1HitRate)] = 0.5;
  ReferenceKernel b;
  b.name = "_Z4gemmPKfS0_Pf";
  b.metrics[size_t(RefMetric::Cycles)] = 5000;
  ref.kernels = {a, b};
  Validation v = validate(r, ref, "ref.csv");
  EXPECT_EQ(v.matched, 2u);
  ASSERT_EQ(v.metrics.size(), 2u);
  EXPECT_EQ(v.metrics[0].metric, RefMetric::Cycles);
  EXPECT_DOUBLE_EQ(*v.metrics[0].error, (25.0 + 0.0) / 2);  // |1000-800|/800 and 0
  EXPECT_NEAR(*v.metrics[0].corr, 1, 1e-12);
  EXPECT_EQ(v.metrics[1].metric, RefMetric::L1HitRate);
  EXPECT_NEAR(*v.metrics[1].error, 10, 1e-9);  // percentage points
  EXPECT_FALSE(v.metrics[1].corr);
  // Counts add up for the application; fractions do not.
  ASSERT_TRUE(v.metrics[0].application);
  EXPECT_DOUBLE_EQ(v.metrics[0].application->reference, 5800);
  EXPECT_DOUBLE_EQ(v.metrics[0].application->simulated,
                   r.kernels[0].m.cycles + r.kernels[1].m.cycles);
  EXPECT_FALSE(v.metrics[1].application);
  // What the reference lacks is named, not compared as 0.
  EXPECT_NE(std::find(v.missing.begin(), v.missing.end(), RefMetric::Instructions), v.missing.end());
  EXPECT_TRUE(v.stalls.empty());
}

TEST(Validate, StallSharesAndTheirTotalVariationDistance) {
  Report r = report({});
  ReferenceKernel a;
  a.id = 1;
  ReferenceStalls st;
  st.source = "stall_*";
  st.by_type[size_t(StallType::MemData)] = 3;
  st.by_type[size_t(StallType::ComData)] = 1;
  st.unmapped = 4;  // e.g. constant-cache misses: no stall type
  a.stalls = st;
  a.metrics[size_t(RefMetric::StallMemData)] = 0.75;
  Validation v = validate(r, Reference{"nvprof-trace", {a}}, "ref.csv");
  ASSERT_EQ(v.stalls.size(), 1u);
  const StallComparison& c = v.stalls[0];
  EXPECT_DOUBLE_EQ(c.reference[1], 0.75);  // MemData, second compared type
  EXPECT_DOUBLE_EQ(c.reference[3], 0.25);  // ComData
  EXPECT_DOUBLE_EQ(c.reference_left_out, 0.5);
  const Metrics& m = r.kernels[0].m;
  double compared = 0;
  for (StallType t : kComparedStallTypes) compared += m.stall_type[size_t(t)];
  double distance = 0;
  for (size_t i = 0; i < kComparedStallTypes.size(); ++i) {
    EXPECT_DOUBLE_EQ(c.simulated[i], m.stall_type[size_t(kComparedStallTypes[i])] / compared);
    distance += std::fabs(c.simulated[i] - c.reference[i]) / 2;
  }
  EXPECT_DOUBLE_EQ(c.distance, distance);
  EXPECT_GT(c.distance, 0);
  EXPECT_DOUBLE_EQ(c.simulated_left_out, 1 - compared / m.stall_cycles());
}

TEST(Validate, SummaryRowComparesTheMeanOfTheLaunchesItAverages) {
  Report r = report({});
  r.kernels[1].name = r.kernels[0].name;  // two launches of vecAdd
  ReferenceKernel summary;
  summary.name = "vecAdd";
  summary.launches = 2;
  summary.metrics[size_t(RefMetric::Instructions)] = 100;
  summary.metrics[size_t(RefMetric::Ipc)] = 0.5;
  Validation v = validate(r, Reference{"nvprof-summary", {summary}}, "ref.csv");
  EXPECT_EQ(v.matched, 1u);
  ASSERT_EQ(v.metrics.size(), 2u);
  const Metrics &a = r.kernels[0].m, &b = r.kernels[1].m;
  ASSERT_EQ(v.metrics[0].pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(v.metrics[0].pairs[0].simulated, (a.instructions + b.instructions) / 2);
  EXPECT_DOUBLE_EQ(v.metrics[1].pairs[0].simulated, (a.ipc() + b.ipc()) / 2);  // rates averaged as the profiler does
  EXPECT_EQ(v.metrics[0].pairs[0].kernel_id, 1u);
}

TEST(Validate, SummaryRowOfOtherLaunchesIsNotCompared) {
  Report r = report({});  // one launch of vecAdd
  ReferenceKernel summary;
  summary.name = "vecAdd";
  summary.launches = 301;
  summary.metrics[size_t(RefMetric::Instructions)] = 100;
  EXPECT_EQ(test::error_of([&] { validate(r, Reference{"nvprof-summary", {summary}}, "ref.csv"); }).substr(0, 51),
            "ref.csv: no reference kernel matches a simulated ke");
  // A plan's run whose launch stands for as many launches as the row averages is.
  FixtureOptions plan;
  plan.plan = true;  // vecAdd's weight is 3
  summary.launches = 3;
  EXPECT_EQ(validate(report(plan), Reference{"nvprof-summary", {summary}}, "ref.csv").matched, 1u);
}

TEST(Validate, NoMatchingKernelFails) {
  Reference ref{"plain", {ReferenceKernel{std::nullopt, "other", {}}}};
  try {
    validate(report({}), ref, "ref.csv");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Failure);
    EXPECT_NE(std::string(e.what()).find("reference: other"), std::string::npos) << e.what();
  }
}

TEST(Compare, DeltasPerMetricAndStallType) {
  Comparison c = compare({report({}), report({.variant_b = true}), report({})});
  ASSERT_EQ(c.scopes.size(), 3u);  // two kernels and the application
  ASSERT_EQ(c.runs.size(), 3u);
  const CompareRow& cycles = c.scopes[0].rows[0];
  EXPECT_EQ(cycles.metric, "cycles");
  EXPECT_EQ(*cycles.delta(1), -200);
  EXPECT_DOUBLE_EQ(*cycles.change(1), -20);
  EXPECT_EQ(*cycles.delta(2), 0);  // the third run is the baseline again
  bool found = false;
  for (const CompareRow& row : c.scopes[0].rows)
    if (row.metric == "stall_MemData_frac") {
      found = true;
      EXPECT_DOUBLE_EQ(*row.values[0], 0.6);
      EXPECT_DOUBLE_EQ(*row.values[1], 0.5);
      EXPECT_FALSE(row.change(1));  // fractions get a delta in points only
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(*c.scopes[2].rows[0].delta(1), -700);
}

TEST(Output, DeterministicAcrossRuns) {
  std::ostringstream a, b;
  const stream::Stage self{"stall-report", "0", {"stall-report"}};
  write_json(a, {report({.plan = true})}, self);
  write_json(b, {report({.plan = true})}, self);
  EXPECT_EQ(a.str(), b.str());
  // The CSV's column names: a stall type's cycles are stall_TYPE_cycles.
  EXPECT_NE(a.str().find("\"stall_MemStruct_cycles\":0,\"stall_MemData_cycles\":600"), std::string::npos) << a.str();
  // The run's stream stages, then stall-report's own.
  EXPECT_NE(a.str().find("{\"tool\":\"stall-report\",\"version\":\"0\",\"argv\":[\"stall-report\"]}]}]}"),
            std::string::npos)
      << a.str();
}

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

TEST(TextReport, AKernelNameNeverForgesARowOrMovesTheCursor) {
  FixtureOptions o;
  o.vecadd_name = "a\nall     (total)  9  9\x1b[2J";
  std::ostringstream out;
  write_text(out, report(o));
  const std::string text = out.str();
  EXPECT_EQ(text.find("\x1b"), std::string::npos);
  EXPECT_NE(text.find("a\\nall     (total)  9  9\\x1b[2J"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nall     (total)  9  9"), std::string::npos) << text;
}

TEST(Diag, PrintableEscapesControlCharactersOnly) {
  EXPECT_EQ(printable("plain text, 100% (ok)"), "plain text, 100% (ok)");
  EXPECT_EQ(printable(std::string("a\nb\tc\x1b[31md\x07\x7f\0", 14)), "a\\nb\\tc\\x1b[31md\\x07\\x7f\\x00");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes
}

namespace {

// Two runs of the fixture, validated against references 20% and 50% above
// their simulated cycles.
std::vector<Validation> two_validated_runs() {
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

}  // namespace

TEST(Validate, SuitePoolsThePairsOfEveryRun) {
  const Validation suite = pool_validations(two_validated_runs());
  EXPECT_EQ(suite.matched, 2u);
  ASSERT_EQ(suite.metrics.size(), 2u);
  const MetricValidation& cycles = suite.metrics[0];
  ASSERT_EQ(cycles.pairs.size(), 2u);
  EXPECT_EQ(cycles.pairs[0].run, "a");
  EXPECT_EQ(cycles.pairs[1].run, "b");
  // |s - 1.2 s| / 1.2 s and |s - 1.5 s| / 1.5 s, averaged.
  EXPECT_NEAR(*cycles.error, 100 * (0.2 / 1.2 + 0.5 / 1.5) / 2, 1e-9);
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
