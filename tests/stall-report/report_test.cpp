#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "compare.hpp"
#include "gather.hpp"
#include "libcommon/diag.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "reports.hpp"
#include "tests/support/error_of.hpp"
#include "validate.hpp"
#include "validation_stats.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;
using sasskit::testing::FixtureOptions;
using sasskit::testing::report;
using sasskit::testing::two_validated_runs;
using sasskit::testing::type_cycles;

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

TEST(TextReport, EachSampledKernelsEstimateIsNamedWhereThereAreSeveral) {
  Report r = report({.plan = true, .sample = true});
  std::ostringstream one;
  write_text(one, r);
  EXPECT_EQ(one.str().find("Per kernel:"), std::string::npos) << one.str();  // the application's is the kernel's
  EXPECT_NE(one.str().find("The cycles column is the kept SMs' own, not scaled"), std::string::npos) << one.str();
  r.kernels[0].m.sampling_error = -0.02;
  r.kernels[0].m.sampling_method = SamplingMethod::Check;
  std::ostringstream two;
  write_text(two, r);
  EXPECT_NE(two.str().find("Per kernel: 1 \u00b12.0% (check), 2 \u00b110.0% (limits).\n"), std::string::npos) << two.str();
}

TEST(Diag, PrintableEscapesControlCharactersOnly) {
  EXPECT_EQ(printable("plain text, 100% (ok)"), "plain text, 100% (ok)");
  EXPECT_EQ(printable(std::string("a\nb\tc\x1b[31md\x07\x7f\0", 14)), "a\\nb\\tc\\x1b[31md\\x07\\x7f\\x00");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes
}
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
