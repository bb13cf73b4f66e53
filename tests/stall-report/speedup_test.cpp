// Speed-ups of design points over a baseline run: the table (text, JSON)
// and the per-kernel chart of stall-report's comparison.
#include <gtest/gtest.h>

#include <sstream>

#include "compare.hpp"
#include "fixture.hpp"
#include "gather.hpp"
#include "output.hpp"
#include "plot_table.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;
using sasskit::testing::FixtureOptions;

namespace {

Report run(const FixtureOptions& o, const std::string& label) {
  std::istringstream in(sasskit::testing::fixture_stream(o));
  Report r = gather_members(in, label + ".stream", {5}).front().report;
  r.run = label;
  return r;
}

const CompareScope& scope(const Comparison& c, uint32_t id) {
  for (const CompareScope& s : c.scopes)
    if (s.id == id) return s;
  throw std::logic_error("no kernel " + std::to_string(id));
}

}  // namespace

TEST(Speedup, BaselineCyclesOverEachRunsPerKernelAndApplication) {
  const std::vector<Report> runs{run({}, "base"), run({.variant_b = true}, "fast"), run({}, "again")};
  const Comparison c = compare(runs);
  // vecAdd 1000 -> 800 cycles, gemm 5000 -> 4500; the application 6000 -> 5300.
  EXPECT_DOUBLE_EQ(scope(c, 1).speedup(1)->value, 1000.0 / 800);
  EXPECT_DOUBLE_EQ(scope(c, 2).speedup(1)->value, 5000.0 / 4500);
  EXPECT_DOUBLE_EQ(c.scopes.back().speedup(1)->value, runs[0].totals.cycles / runs[1].totals.cycles);
  EXPECT_DOUBLE_EQ(scope(c, 2).speedup(2)->value, 1.0);
  EXPECT_FALSE(scope(c, 1).speedup(1)->range_frac);  // neither run has an error estimate
}

TEST(Speedup, RangeAddsBothRunsEstimates) {
  // gemm sampled in the baseline (its estimate 10%, fixture_sample), not in the design point.
  const std::vector<Report> runs{run({.sample = true}, "base"), run({.variant_b = true}, "fast")};
  const std::optional<Speedup> s = scope(compare(runs), 2).speedup(1);
  ASSERT_TRUE(s && s->range_frac);
  EXPECT_NEAR(*s->range_frac, 0.1, 1e-12);
  const std::vector<Report> both{run({.sample = true}, "base"), run({.sample = true, .variant_b = true}, "fast")};
  EXPECT_NEAR(*scope(compare(both), 2).speedup(1)->range_frac, 0.2, 1e-12);
}

TEST(Speedup, TextTableComesFirstAndMarksAMissingKernel) {
  Report fast = run({.variant_b = true}, "fast");
  fast.kernels.erase(fast.kernels.begin());  // no vecAdd in the design point
  std::ostringstream out;
  write_compare_text(out, compare({run({}, "base"), fast}));
  const std::string text = out.str();
  const size_t table = text.find("speed-up over run 1 (run 1's cycles / the run's)\n");
  ASSERT_NE(table, std::string::npos) << text;
  EXPECT_LT(table, text.find("\nkernel 1 _Z6vecAddPfS_S_i"));  // before the per-kernel metrics
  EXPECT_NE(text.find("kernel 1 _Z6vecAddPfS_S_i     n/s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel 2 _Z4gemmPKfS0_Pf   1.111x\n"), std::string::npos) << text;
}

TEST(Speedup, JsonHasOneEntryPerScopeAndDesignPoint) {
  std::ostringstream out;
  write_json(out, {run({.sample = true}, "base"), run({.variant_b = true}, "fast")}, stream::Stage{}, {});
  const std::string json = out.str();
  EXPECT_NE(json.find("\"speedups\":{\"baseline\":\"base\",\"scopes\":[{\"kernel_id\":1,"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"run\":\"fast\",\"speedup\":1.25,\"range_frac\":null,\"stand_in\":false}"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"range_frac\":0.1"), std::string::npos) << json;  // the sampled gemm
}

TEST(Speedup, ChartOneGroupPerKernelOneBarPerDesignPoint) {
  const std::vector<Report> runs{run({.sample = true}, "base"), run({.variant_b = true}, "fast"),
                                 run({}, "same")};
  const PlotTable t = compare_speedup_table(runs);
  EXPECT_EQ(t.title, "Speed-up over 1 base per kernel");
  ASSERT_EQ(t.groups.size(), 3u);  // the application, gemm, vecAdd
  EXPECT_EQ(t.groups[0].title, "application");
  EXPECT_EQ(t.groups[1].title, "2 gemm");
  ASSERT_EQ(t.groups[1].rows.size(), 2u);  // the baseline has no bar
  EXPECT_EQ(t.groups[1].rows[0].label, "fast");
  EXPECT_DOUBLE_EQ(t.groups[1].rows[0].values[0], 5000.0 / 4500);
  ASSERT_TRUE(t.groups[1].rows[0].error);
  EXPECT_NEAR(*t.groups[1].rows[0].error, 5000.0 / 4500 * 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(t.groups[2].rows[1].values[0], 1.0);
  EXPECT_TRUE(compare_speedup_table({runs[0]}).groups.empty());  // one run: nothing to compare
}
