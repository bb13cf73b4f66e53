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

// A stage of format 2.3: its options recorded, its model fingerprinted.
stream::Stage stage(std::string tool, stream::StageOptions options, std::string gpu, std::string fingerprint = "f1",
                    std::vector<std::string> argv = {}) {
  return {std::move(tool), "1", std::move(argv), std::move(gpu), std::move(fingerprint), std::move(options)};
}

// A stage of format 2.2: only its command line.
stream::Stage old_stage(std::string tool, std::vector<std::string> argv, std::string gpu) {
  return {std::move(tool), "1", std::move(argv), std::move(gpu)};
}

std::string csv(const std::vector<Report>& runs) {
  std::ostringstream s;
  write_csv(s, runs);
  return s.str();
}

}  // namespace

TEST(Runs, ConfigIsTheGpuStagesRecordedOptions) {
  std::vector<stream::Stage> p{stage("trace-unpack", {{"kernels", "1"}}, "", ""),
                               stage("cta-sample", {{"keep", "all"}}, "QV100"),
                               stage("rd-cache", {}, "QV100"),
                               stage("pipe-sim", {{"pkp", "true"}, {"pkp-s", "0.1"}}, "QV100")};
  EXPECT_EQ(run_config(p), "cta-sample --keep=all; rd-cache; pipe-sim --pkp --pkp-s=0.1");
  EXPECT_EQ(run_config({}), "");
  EXPECT_EQ(run_config({stage("pipe-sim", {{"pkp-s", "1\x1b[2J"}}, "QV100")}), "pipe-sim --pkp-s=1?[2J");
}

TEST(Runs, ConfigOfAStageBefore2_3IsItsCommandLine) {
  EXPECT_EQ(run_config({old_stage("pipe-sim", {"pipe-sim", "--config", "qv100", "-o", "x"}, "QV100"),
                        old_stage("rd-cache", {}, "QV100")}),
            "pipe-sim (command line: --config qv100 -o x); rd-cache (options not recorded)");
}

TEST(Runs, OneConfigurationWhateverTheCommandLines) {
  const auto pipe_sim = [](stream::StageOptions o, std::string fingerprint, std::vector<std::string> argv) {
    return std::vector<stream::Stage>{stage("trace-unpack", {{"ctas", "0-511"}}, "", ""),
                                      stage("pipe-sim", std::move(o), "QV100", std::move(fingerprint), std::move(argv))};
  };
  const auto base = pipe_sim({{"pkp", "true"}}, "f1", {"pipe-sim", "-f", "shard1.s", "--pkp"});
  EXPECT_TRUE(same_configuration(base, pipe_sim({{"pkp", "true"}}, "f1", {"pipe-sim", "-j4", "x.s", "--pkp"})));
  EXPECT_FALSE(same_configuration(base, pipe_sim({{"pkp", "true"}, {"pkp-s", "0.2"}}, "f1", {})));
  EXPECT_FALSE(same_configuration(base, pipe_sim({}, "f1", {})));
  EXPECT_FALSE(same_configuration(base, pipe_sim({{"pkp", "true"}}, "f2", {})));  // other model values
  // A model key given as an option or in the model file: the fingerprint decides.
  EXPECT_TRUE(same_configuration(pipe_sim({{"l2-size", "4MiB"}}, "f3", {}), pipe_sim({}, "f3", {})));
  EXPECT_FALSE(same_configuration(pipe_sim({{"l2-size", "4MiB"}}, "f3", {}), pipe_sim({{"l2-size", "8MiB"}}, "f4", {})));
  EXPECT_FALSE(same_configuration(base, {stage("pipe-sim", {{"pkp", "true"}}, "QV100"), base[1]}));  // stage count
}

TEST(Runs, StagesBefore2_3AreOneConfigurationOnlyWithOneCommandLine) {
  const std::vector<stream::Stage> a{old_stage("pipe-sim", {"pipe-sim", "--pkp"}, "QV100")};
  EXPECT_TRUE(same_configuration(a, a));
  EXPECT_FALSE(same_configuration(a, {old_stage("pipe-sim", {"pipe-sim", "--pkp", "-j4"}, "QV100")}));
  EXPECT_FALSE(same_configuration(a, {stage("pipe-sim", {{"pkp", "true"}}, "QV100", "f1", {"pipe-sim", "--pkp"})}));
  EXPECT_TRUE(same_configuration({old_stage("pipe-sim", {}, "QV100")}, {old_stage("pipe-sim", {}, "QV100")}));
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

TEST(Runs, ShardsOfOneConfigurationMergeAndOfModelsAlikeInNameAreRefusedByFingerprint) {
  Report a = labelled({}, "app"), b = labelled({}, "app");
  a.provenance = {stage("pipe-sim", {}, "QV100", "0123456789abcdef", {"pipe-sim", "-f", "shard1.s"})};
  b.provenance = {stage("pipe-sim", {}, "QV100", "0123456789abcdef", {"pipe-sim", "-j4", "x.s"})};
  describe_run(a, "app");
  describe_run(b, "app");
  EXPECT_EQ(merge_shards({a, b}).size(), 1u);
  b.provenance[0].gpu_fingerprint = "fedcba9876543210";
  try {
    merge_shards({a, b});
    ADD_FAILURE() << "merged shards of models with other values";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(QV100, pipe-sim; pipe-sim model fedcba9876543210) than dir/in.stream "
                                          "(QV100, pipe-sim; pipe-sim model 0123456789abcdef)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Output, TidyCsvHasRunColumnsNumericIdsAndATypedApplicationRow) {
  std::string s = csv({labelled({}, "a"), labelled({.variant_b = true}, "b")});
  EXPECT_EQ(s.rfind("run,gpu,config,scope,kernel_id,kernel_name,shards,weight,sample_scale,error_bound_frac,"
                    "sampling_error_frac,sampling_method,cycles,",
                    0),
            0u);
  EXPECT_NE(s.find("\na,QV100,,kernel,1,_Z6vecAddPfS_S_i,1,1,1,,,,1000,"), std::string::npos) << s;
  EXPECT_NE(s.find("\nb,QV100,,application,-1,(application),1,,,,,,5300,"), std::string::npos) << s;  // shards an integer
}
