#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "formats/reference_stats.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;

namespace {

const std::string kVectoradd = std::string(SASSKIT_SHARED_DATA) + "/traces/vectoradd-sm61";

Reference parse(const std::string& text) {
  std::istringstream in(text);
  return read_reference(in, "ref.csv");
}

double metric(const ReferenceKernel& k, RefMetric m) {
  EXPECT_TRUE(k.metrics[size_t(m)].has_value()) << ref_metric_name(m);
  return k.metrics[size_t(m)].value_or(-1);
}

}  // namespace

TEST(Reference, NvprofLogOfVectoradd) {
  if (!std::filesystem::exists(kVectoradd)) GTEST_SKIP() << "needs ../shared/data";
  Reference r = load_reference(kVectoradd + "/nvprof-gtx1080.log");
  EXPECT_EQ(r.format, "nvprof-trace");
  ASSERT_EQ(r.kernels.size(), 1u);  // the units row is not a kernel
  const ReferenceKernel& k = r.kernels[0];
  EXPECT_EQ(k.name, "_Z6vecAddIfEvPT_S1_S1_i");
  EXPECT_EQ(k.id, 1u);  // launch order
  EXPECT_EQ(metric(k, RefMetric::Instructions), 344);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::SmIpc), 0.35102);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::Occupancy), 0.368591);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::L2HitRate), 1.0);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::L1HitRate), 0.0);
  EXPECT_EQ(metric(k, RefMetric::GmemRequests), 26 + 13);
  EXPECT_FALSE(k.metrics[size_t(RefMetric::Cycles)]);
}

TEST(Reference, NvprofSummaryTakesTheAverage) {
  Reference r = parse(
      "==1== Profiling result:\n"
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n"
      "\"GTX 1080 (0)\",\"k1\",2,\"inst_executed\",\"Instructions Executed\",300,400,350\n"
      "\"GTX 1080 (0)\",\"k1\",2,\"global_hit_rate\",\"Global Hit Rate\",10.0%,30.0%,20.0%\n"
      "\"GTX 1080 (0)\",\"k2\",1,\"inst_executed\",\"Instructions Executed\",7,7,7\n");
  EXPECT_EQ(r.format, "nvprof-summary");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].launches, 2u);
  EXPECT_EQ(r.kernels[0].name, "k1");
  EXPECT_EQ(metric(r.kernels[0], RefMetric::Instructions), 350);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::L1HitRate), 0.2);
  EXPECT_EQ(metric(r.kernels[1], RefMetric::Instructions), 7);
}

TEST(Reference, AccelsimCsvOfVectoradd) {
  if (!std::filesystem::exists(kVectoradd)) GTEST_SKIP() << "needs ../shared/data";
  Reference r = load_reference(kVectoradd + "/accelsim_log.csv");
  EXPECT_EQ(r.format, "accelsim-csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const ReferenceKernel& k = r.kernels[0];
  EXPECT_EQ(k.id, 1u);  // kernel_launch_uid
  EXPECT_EQ(metric(k, RefMetric::Cycles), 1282);
  EXPECT_EQ(metric(k, RefMetric::Instructions), 344);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::Ipc), 344.0 / 1282);
  EXPECT_DOUBLE_EQ(metric(k, RefMetric::Occupancy), 0.20686);
  EXPECT_EQ(metric(k, RefMetric::GmemRequests), 12);
  EXPECT_EQ(metric(k, RefMetric::L2HitRate), 0);
  EXPECT_FALSE(k.metrics[size_t(RefMetric::L1HitRate)]);  // no L1 data accesses
}

TEST(Reference, AccelsimTextLogOneEntryPerKernel) {
  Reference r = parse(
      "GPGPU-Sim uArch: some banner\n"
      "kernel_name = _Z1aPi\nkernel_launch_uid = 1\ngpu_sim_cycle = 1282\ngpu_tot_sim_cycle = 1282\n"
      "warp_instruction_count = 344\ngpu_occupancy = 20.6860% \n"
      "kernel_name = _Z1bPi\nkernel_launch_uid = 2\ngpu_sim_cycle = 100\ngpu_tot_sim_cycle = 1382\n");
  EXPECT_EQ(r.format, "accelsim-log");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name, "_Z1aPi");
  EXPECT_EQ(metric(r.kernels[0], RefMetric::Cycles), 1282);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::Occupancy), 0.20686);
  EXPECT_EQ(r.kernels[1].id, 2u);
  EXPECT_EQ(metric(r.kernels[1], RefMetric::Cycles), 100);  // per kernel, not the running total
}

TEST(Reference, AccelsimNanIsNotAvailableNotAnError) {
  // Accel-Sim prints printf's nan for a ratio it cannot compute (every log of
  // the shared corpus has "gpu_occupancy = -nan%").
  Reference r = parse(
      "GPGPU-Sim uArch: some banner\n"
      "kernel_name = _Z1aPi\nkernel_launch_uid = 1\ngpu_sim_cycle = 1282\ngpu_tot_sim_cycle = 1282\n"
      "warp_instruction_count = 344\ngpu_occupancy = -nan% \ngpu_tot_occupancy = inf% \n");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(metric(r.kernels[0], RefMetric::Cycles), 1282);
  EXPECT_FALSE(r.kernels[0].metrics[size_t(RefMetric::Occupancy)].has_value());
  // Elsewhere a word where a number belongs is still an error, with its line.
  EXPECT_THROW(parse("GPGPU-Sim uArch: x\nkernel_name = a\nkernel_launch_uid = 1\ngpu_sim_cycle = 5\n"
                     "gpu_tot_sim_cycle = 5\ngpu_occupancy = lots% \n"),
               Error);
}

TEST(Reference, NsightComputeLongFormGroupsRowsByLaunch) {
  Reference r = parse(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"1\",\"k(float*)\",\"SOL\",\"Elapsed Cycles\",\"cycle\",\"12,345\"\n"
      "\"0\",\"1\",\"k(float*)\",\"Occupancy\",\"Achieved Occupancy\",\"%\",\"45.5\"\n"
      "\"1\",\"1\",\"k(float*)\",\"SOL\",\"Elapsed Cycles\",\"cycle\",\"999\"\n");
  EXPECT_EQ(r.format, "ncu-details");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name, "k(float*)");
  EXPECT_EQ(metric(r.kernels[0], RefMetric::Cycles), 12345);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::Occupancy), 0.455);
  EXPECT_EQ(metric(r.kernels[1], RefMetric::Cycles), 999);
}

TEST(Reference, NsightComputeRawPageSkipsTheUnitsRow) {
  Reference r = parse(
      "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\",\"lts__t_sector_hit_rate.pct\"\n"
      "\"\",\"\",\"cycle\",\"%\"\n"
      "\"0\",\"k\",\"500\",\"80\"\n");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(metric(r.kernels[0], RefMetric::Cycles), 500);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::L2HitRate), 0.8);
}

TEST(Reference, PlainCsvTakesFractionsOrPercentages) {
  Reference r = parse("id,name,cycles,l1_hit_rate\n1,k,100,0.5\n2,k,200,25%\n");
  EXPECT_EQ(r.format, "plain");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[1].id, 2u);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::L1HitRate), 0.5);
  EXPECT_DOUBLE_EQ(metric(r.kernels[1], RefMetric::L1HitRate), 0.25);
}

TEST(Reference, UnknownLayoutNamesItsColumns) {
  try {
    parse("foo,bar\nx,y\n");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_EQ(e.where(), "ref.csv:1");
    EXPECT_NE(std::string(e.what()).find("columns: foo, bar"), std::string::npos) << e.what();
  }
}

TEST(Reference, BadNumberInPlainCsvNamesTheLine) {
  try {
    parse("id,cycles\n1,abc\n");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "ref.csv:2");
    EXPECT_STREQ(e.what(), "cycles 'abc' is not a number");
  }
}

TEST(Reference, DurationsOnlyProfileIsRefused) {
  EXPECT_EQ(test::error_of([] { parse("k1,k2\n10,20\n"); }),
            "ref.csv: this wide export holds kernel times only; a reference needs cycles, instructions or rates "
            "(ncu, nvprof, Accel-Sim or a plain CSV)");
}

TEST(Reference, ToolLinesAloneAreNoReference) {
  EXPECT_EQ(test::error_of([] { parse("==PROF== x\n==1=\n"); }), "ref.csv: empty profile: no CSV header found");
}
