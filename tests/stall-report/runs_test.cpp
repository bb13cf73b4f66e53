#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "gather.hpp"
#include "libcommon/diag.hpp"
#include "output.hpp"
#include "runs.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;

namespace {

Report labelled(const sasskit::testing::FixtureOptions& o, const std::string& label) {
  std::istringstream in(sasskit::testing::fixture_stream(o));
  Report r = gather_members(in, "dir/in.stream", {}).front().report;
  describe_run(r, label);
  return r;
}

// The run with only the kernel `id` kept, as trace-unpack --kernels would.
Report only_kernel(Report r, uint32_t id) {
  std::erase_if(r.kernels, [&](const KernelReport& k) { return k.id != id; });
  return r;
}

stream::Stage stage(std::string tool, std::vector<std::string> argv, std::string gpu) {
  return {std::move(tool), "1", std::move(argv), std::move(gpu)};
}

std::string csv(const std::vector<Report>& runs) {
  std::ostringstream s;
  write_csv(s, runs);
  return s.str();
}

}  // namespace

TEST(Runs, ConfigIsTheGpuStagesOptionsWithoutPlumbing) {
  std::vector<stream::Stage> p{
      stage("trace-unpack", {"trace-unpack", "--kernels", "1", "app"}, ""),
      stage("cta-sample", {"cta-sample", "--config", "qv100", "--keep", "all", "-q"}, "QV100"),
      stage("rd-cache", {}, "QV100"),
      stage("pipe-sim", {"pipe-sim", "--config=qv100", "--pkp", "in.stream", "-j", "2", "-o", "out", "--pkp-s=0.1"},
            "QV100")};
  EXPECT_EQ(run_config(p), "cta-sample --keep all; rd-cache; pipe-sim --pkp --pkp-s=0.1");
  EXPECT_EQ(run_config({}), "");
  EXPECT_EQ(run_config({stage("pipe-sim", {"pipe-sim", "--pkp-s", "1\x1b[2J"}, "QV100")}), "pipe-sim --pkp-s 1?[2J");
}

TEST(Runs, LabelDefaultsToTheInputNameAndGpuToTheStatsRecords) {
  Report r = labelled({}, "");
  EXPECT_EQ(r.run, "dir/in.stream");
  EXPECT_EQ(r.gpu, "QV100");  // the fixture's only stage names no GPU
  EXPECT_EQ(labelled({}, "fast").run, "fast");
}

TEST(Runs, KernelShardsMergeToTheUnshardedRunExactly) {
  Report whole = labelled({.plan = true}, "app");
  std::vector<Report> merged = merge_shards({only_kernel(whole, 2), only_kernel(whole, 1)});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].kernels.front().id, 1u);  // by id, whatever the shard order
  EXPECT_EQ(csv(merged), csv(merge_shards({whole})));
}

TEST(Runs, CtaShardsOfOneKernelSumTheirCounts) {
  Report r = labelled({}, "app");
  std::vector<Report> merged = merge_shards({only_kernel(r, 1), only_kernel(r, 1)});
  ASSERT_EQ(merged[0].kernels.size(), 1u);
  const KernelReport& k = merged[0].kernels[0];
  EXPECT_EQ(k.shards, 2u);
  EXPECT_DOUBLE_EQ(k.m.cycles, 2 * r.kernels[0].m.cycles);
  EXPECT_DOUBLE_EQ(k.m.instructions, 2 * r.kernels[0].m.instructions);
  EXPECT_DOUBLE_EQ(*k.m.l1_hit_rate, *r.kernels[0].m.l1_hit_rate);
}

TEST(Runs, ShardsOfOtherGpuModelsOrSampledKernelsAreRefused) {
  Report a = labelled({}, "app"), b = labelled({}, "app");
  b.gpu = "A100";
  EXPECT_THROW(merge_shards({a, b}), Error);
  Report sampled = labelled({.sample = true}, "app");
  EXPECT_THROW(merge_shards({only_kernel(sampled, 2), only_kernel(sampled, 2)}), Error);
  EXPECT_EQ(merge_shards({a, labelled({}, "other")}).size(), 2u);  // other labels: other runs
}

TEST(Output, TidyCsvHasRunColumnsNumericIdsAndATypedApplicationRow) {
  std::string s = csv({labelled({}, "a"), labelled({.variant_b = true}, "b")});
  EXPECT_EQ(s.rfind("run,gpu,config,scope,kernel_id,kernel_name,shards,weight,sample_scale,error_bound_frac,"
                    "sampling_error_frac,cycles,",
                    0),
            0u);
  EXPECT_NE(s.find("\na,QV100,,kernel,1,_Z6vecAddPfS_S_i,1,1,1,,,1000,"), std::string::npos) << s;
  EXPECT_NE(s.find("\nb,QV100,,application,,(application),,,,,,5300,"), std::string::npos) << s;
}
