#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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
  // Global memory warp instructions (inst_executed_global_loads + _stores), not
  // global_{load,store}_requests, which count 26 + 13 sectors on this Pascal.
  EXPECT_EQ(metric(k, RefMetric::GmemRequests), 8 + 4);
  EXPECT_FALSE(k.metrics[size_t(RefMetric::Cycles)]);
}

TEST(Reference, NcuRawOldMetricNamesOfVectoradd) {
  const std::string file = std::string(SASSKIT_SHARED_DATA) + "/profiles/real/ncu-raw-vectoradd-gtx1080.csv";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "needs ../shared/data";
  Reference r = load_reference(file);
  ASSERT_EQ(r.kernels.size(), 3u);
  const ReferenceKernel& k = r.kernels[0];
  const std::pair<RefMetric, double> held[] = {
      {RefMetric::Cycles, 5774},          {RefMetric::Instructions, 344},   {RefMetric::SmIpc, 0.16},
      {RefMetric::Occupancy, 0.283},      {RefMetric::L1HitRate, 0},        {RefMetric::L2HitRate, 0.3077},
      {RefMetric::GmemRequests, 8 + 4},   // global load and store warp instructions (sass__inst_executed_*)
      {RefMetric::L2Sectors, 26 + 13},    // L1/tex read misses and writes
      {RefMetric::L2ReadSectors, 26},     // tex__m_rd_sectors_miss_global_ld_cached
      {RefMetric::L2WriteSectors, 13},    // tex__m_wr_sectors_global_nonatom
      {RefMetric::DramReadSectors, 236},  {RefMetric::DramWriteSectors, 12}, {RefMetric::SmemConflicts, 0}};
  for (auto [m, value] : held) EXPECT_DOUBLE_EQ(metric(k, m), value) << ref_metric_name(m);
  EXPECT_FALSE(k.metrics[size_t(RefMetric::SmActiveCycles)]);
  // smsp__warp_cycles_per_issue_stall_*: long + short scoreboard are MemData;
  // imc_miss, misc and allocation_stall have no stall type; selected and
  // not_selected are not stalls.
  ASSERT_TRUE(k.stalls);
  EXPECT_EQ(k.stalls->source, "smsp__warp_cycles_per_issue_stall_*");
  const double mapped = 0.15 + 3.86 + 4.27 + 0.06 + 3.63 + 3.86;
  EXPECT_NEAR(k.stalls->mapped(), mapped, 1e-9);
  EXPECT_NEAR(k.stalls->unmapped, 7.47 + 36.16 + 33.92, 1e-9);
  EXPECT_NEAR(metric(k, RefMetric::StallMemData), (3.86 + 4.27) / mapped, 1e-12);
  EXPECT_NEAR(metric(k, RefMetric::StallCtrl), 3.86 / mapped, 1e-12);
  EXPECT_EQ(metric(k, RefMetric::StallSync), 0);
}

TEST(Reference, NvprofStallReasonsAndTraffic) {
  const std::string file = std::string(SASSKIT_SHARED_DATA) + "/profiles/real/nvprof-metrics-vectoradd-gtx1080.txt";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "needs ../shared/data";
  const ReferenceKernel k = load_reference(file).kernels.at(0);
  EXPECT_EQ(metric(k, RefMetric::L2Sectors), 26 + 13);
  EXPECT_EQ(metric(k, RefMetric::L2ReadSectors), 26);  // l2_tex_read_transactions
  EXPECT_EQ(metric(k, RefMetric::L2WriteSectors), 13);
  EXPECT_EQ(metric(k, RefMetric::DramReadSectors), 223);
  EXPECT_EQ(metric(k, RefMetric::DramWriteSectors), 0);
  ASSERT_TRUE(k.stalls);
  EXPECT_EQ(k.stalls->source, "stall_*");
  EXPECT_NEAR(k.stalls->unmapped, 11.196172 + 58.157895, 1e-9);  // other, constant memory
  EXPECT_NEAR(metric(k, RefMetric::StallComData), 16.100478 / k.stalls->mapped(), 1e-12);
}

// The metrics each real export holds for at least one kernel: the counts
// bench/README.md (Validation) gives.
TEST(Reference, MetricsHeldByEachRealExport) {
  const std::string dir = std::string(SASSKIT_SHARED_DATA) + "/profiles/real/";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "needs ../shared/data";
  const std::pair<const char*, size_t> files[] = {
      {"ncu-raw-vectoradd-gtx1080.csv", 19},         {"ncu-raw-vectoradd-gtx1080.stdout.txt", 19},
      {"nvprof-metrics-vectoradd-gtx1080.txt", 17}, {"nvprof-metrics-matrixmul-gtx1080ti.csv", 16},
      {"ncu-raw-pka-tiny-rtx2070s.csv", 3},          {"ncu-details-gemm-naive-rtx5070.csv", 6},
  };
  for (const auto& [file, count] : files) {
    const Reference r = load_reference(dir + file);
    std::string held;
    size_t n = 0;
    for (size_t m = 0; m < kRefMetrics; ++m)
      if (std::any_of(r.kernels.begin(), r.kernels.end(), [&](const ReferenceKernel& k) { return k.metrics[m]; }))
        ++n, held += std::string(" ") + ref_metric_name(RefMetric(m));
    EXPECT_EQ(n, count) << file << ":" << held;
  }
}

TEST(Reference, AccelsimRunTotalsCountOnlyForTheFirstKernel) {
  Reference r = parse(
      "kernel_name = first\nkernel_launch_uid = 1\ngpu_sim_cycle = 100\ngpu_tot_sim_cycle = 100\n"
      "gpgpu_n_tot_w_icount = 400\n\tL1D_total_cache_accesses = 50\n\tL1D_total_cache_miss_rate = 0.2500\n"
      "L2_total_cache_accesses = 10\nL2_total_cache_miss_rate = 0.1000\n"
      "gpgpu_n_shmem_bkconflict = 6\ntotal dram reads = 12\ntotal dram writes = 3\nsome message = 7\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 64\n"
      "\tL2_cache_stats_breakdown[LOCAL_ACC_R][TOTAL_ACCESS] = 4\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS] = 32\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_W][MISS] = 8\n"
      "kernel_name = second\nkernel_launch_uid = 2\ngpu_sim_cycle = 50\ngpu_tot_sim_cycle = 150\n"
      "gpgpu_n_tot_w_icount = 900\n\tL1D_total_cache_accesses = 70\n\tL1D_total_cache_miss_rate = 0.3000\n"
      "gpgpu_n_shmem_bkconflict = 9\ntotal dram reads = 20\ntotal dram writes = 5\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 90\n"
      "kernel_name = third\nkernel_launch_uid = 3\ngpu_sim_cycle = 10\ngpu_tot_sim_cycle = 10\n"
      "L2_total_cache_accesses = 8\n\tL2_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 8\n");
  ASSERT_EQ(r.kernels.size(), 3u);
  const std::pair<RefMetric, double> first[] = {
      {RefMetric::Instructions, 400},   {RefMetric::Ipc, 4},
      {RefMetric::L1HitRate, 0.75},     {RefMetric::L2HitRate, 0.9},
      {RefMetric::DramReadSectors, 12}, {RefMetric::DramWriteSectors, 3},
      {RefMetric::SmemConflicts, 6},    {RefMetric::L2ReadSectors, 64 + 4},
      {RefMetric::L2WriteSectors, 32},  {RefMetric::L2Sectors, 64 + 4 + 32}};
  for (auto [m, value] : first) EXPECT_DOUBLE_EQ(metric(r.kernels[0], m), value) << ref_metric_name(m);
  for (RefMetric m : {RefMetric::Instructions, RefMetric::L1HitRate, RefMetric::L2HitRate, RefMetric::DramReadSectors,
                      RefMetric::DramWriteSectors, RefMetric::SmemConflicts, RefMetric::L2ReadSectors,
                      RefMetric::L2Sectors})
    EXPECT_FALSE(r.kernels[1].metrics[size_t(m)]) << ref_metric_name(m);  // the run's, not its own
  // gpgpu-sim prints an access type's L2 total only where it is not 0: with
  // the L2's totals printed, a type left out had none.
  EXPECT_EQ(metric(r.kernels[2], RefMetric::L2ReadSectors), 8);
  EXPECT_EQ(metric(r.kernels[2], RefMetric::L2WriteSectors), 0);
}

TEST(Reference, AccelsimLinesOfAnL2WithoutSectorsAreNotTakenForSectors) {
  const std::string kernel =
      "kernel_name = k\nkernel_launch_uid = 1\ngpu_sim_cycle = 100\ngpu_tot_sim_cycle = 100\n"
      "total dram reads = 8\n\tL2_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 8\n"
      "\tL2_cache_stats_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS] = 4\n";
  // GTX1080-microgpusim's L2: 128-byte lines, no sectors. The counts are lines.
  const Reference lines =
      parse("-gpgpu_cache:dl2     N:64:128:16,L:B:m:W:L,A:1024:1024,4:0,32 # unified banked L2\n" + kernel);
  for (RefMetric m : {RefMetric::DramReadSectors, RefMetric::L2ReadSectors, RefMetric::L2WriteSectors,
                      RefMetric::L2Sectors})
    EXPECT_FALSE(lines.kernels[0].metrics[size_t(m)]) << ref_metric_name(m);
  // QV100's sectored L2: an access is a sector.
  const Reference sectors =
      parse("-gpgpu_cache:dl2     S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 # unified banked L2\n" + kernel);
  EXPECT_EQ(metric(sectors.kernels[0], RefMetric::DramReadSectors), 8);
  EXPECT_EQ(metric(sectors.kernels[0], RefMetric::L2Sectors), 12);
}

TEST(Reference, PlainCsvCarriesStallShares) {
  Reference r = parse("id,name,cycles,stall_MemData_share,stall_Ctrl_share\n1,k,10,75%,25%\n");
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::StallMemData), 0.75);
  EXPECT_TRUE(ref_metric_is_fraction(RefMetric::StallCtrl));
  EXPECT_EQ(ref_metric_stall_type(RefMetric::StallCtrl), StallType::Ctrl);
  EXPECT_FALSE(ref_metric_stall_type(RefMetric::SmemConflicts));
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

namespace {

// An ncu details page of one launch: (metric, unit, value) rows.
std::string ncu_details(std::initializer_list<std::array<const char*, 3>> metrics) {
  std::string s = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  for (const auto& [name, unit, value] : metrics)
    s += std::string("\"0\",\"k\",\"") + name + "\",\"" + unit + "\",\"" + value + "\"\n";
  return s;
}

}  // namespace

TEST(Reference, NcuByteUnitsScaleByPowersOf1000IntoSectors) {
  Reference r = parse(ncu_details({{"dram__bytes_read.sum", "Kbyte", "1.60"},
                                   {"dram__bytes_write.sum", "Mbyte", "3.20"},
                                   {"smsp__inst_executed.sum", "inst", "7"}}));
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::DramReadSectors), 1600.0 / 32);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::DramWriteSectors), 3.2e6 / 32);
  // The raw page: the unit is in the units row under the header.
  r = parse("\"ID\",\"Kernel Name\",\"dram__read_bytes\",\"dram__write_bytes\"\n"
            "\"\",\"\",\"Gbyte\",\"byte\"\n\"0\",\"k\",\"0.000064\",\"96\"\n");
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::DramReadSectors), 2000);
  EXPECT_DOUBLE_EQ(metric(r.kernels[0], RefMetric::DramWriteSectors), 3);
}

TEST(Reference, NcuSectorCountWinsOverBytes) {
  Reference r = parse(ncu_details({{"dram__sectors_read.sum", "sector", "10"}, {"dram__bytes_read.sum", "byte", "640"}}));
  EXPECT_EQ(metric(r.kernels[0], RefMetric::DramReadSectors), 10);
}

TEST(Reference, NcuByteCountInAnUnknownUnitIsRefused) {
  EXPECT_EQ(test::error_of([] { parse(ncu_details({{"dram__bytes_read.sum", "KiB", "2"}})); }),
            "ref.csv:2: dram__bytes_read.sum is in 'KiB': expected byte, Kbyte, Mbyte, Gbyte, Tbyte or Pbyte");
  EXPECT_EQ(test::error_of([] { parse(ncu_details({{"dram__bytes_op_write.sum", "", "2"}})); }),
            "ref.csv:2: dram__bytes_op_write.sum has no unit: expected byte, Kbyte, Mbyte, Gbyte, Tbyte or Pbyte");
}

TEST(Reference, NcuActiveSmCyclesUnderTheNamesBefore2020) {
  Reference r = parse(ncu_details({{"sm__active_cycles_sum", "cycle", "1,234"}}));
  EXPECT_EQ(metric(r.kernels[0], RefMetric::SmActiveCycles), 1234);
}

TEST(Reference, NvprofL2HitRateFromBothDirectionsOnlyWhereTheWeightsAreExact) {
  auto summary = [](const char* writes_min) {
    return parse(std::string("\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n"
                             "\"D\",\"k\",2,\"l2_tex_read_hit_rate\",\"\",80.0%,100.0%,90.0%\n"
                             "\"D\",\"k\",2,\"l2_tex_write_hit_rate\",\"\",50.0%,50.0%,50.0%\n"
                             "\"D\",\"k\",2,\"l2_tex_read_transactions\",\"\",300,300,300\n"
                             "\"D\",\"k\",2,\"l2_tex_write_transactions\",\"\",") +
                 writes_min + ",100,100\n");
  };
  // The transaction counts were the same in every launch: (0.9 * 300 + 0.5 * 100) / 400.
  EXPECT_DOUBLE_EQ(metric(summary("100").kernels[0], RefMetric::L2HitRate), 0.8);
  // They were not: the averages cannot be weighted exactly.
  EXPECT_FALSE(summary("50").kernels[0].metrics[size_t(RefMetric::L2HitRate)]);
}

TEST(Reference, NvprofSummaryOfMatrixmulWeighsItsL2HitRatesExactly) {
  const std::string file = std::string(SASSKIT_SHARED_DATA) + "/profiles/real/nvprof-metrics-matrixmul-gtx1080ti.csv";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "needs ../shared/data";
  const Reference reference = load_reference(file);
  const ReferenceKernel& k = reference.kernels.at(0);
  EXPECT_EQ(k.launches, 301u);
  // The file's Avg of l2_tex_{read,write}_hit_rate, weighted by its
  // l2_tex_{read,write}_transactions, whose Min and Max are equal.
  EXPECT_NEAR(metric(k, RefMetric::L2HitRate), (97.674216 * 512000 + 64.119134 * 25600) / (512000 + 25600) / 100, 1e-12);
  EXPECT_EQ(metric(k, RefMetric::L2Sectors), 512000 + 25600);
  EXPECT_EQ(metric(k, RefMetric::L2ReadSectors), 512000);
  EXPECT_EQ(metric(k, RefMetric::L2WriteSectors), 25600);
}

TEST(Reference, NcuExportOfSeveralProcessesIsSplitByApplication) {
  Reference r = parse("\"ID\",\"Process ID\",\"Process Name\",\"Kernel Name\",\"gpc__cycles_elapsed.max\"\n"
                      "\"\",\"\",\"\",\"\",\"cycle\"\n"
                      "\"0\",\"10\",\"a.exe\",\"k\",\"100\"\n\"1\",\"20\",\"b\",\"k\",\"200\"\n"
                      "\"2\",\"10\",\"a.exe\",\"k\",\"300\"\n\"3\",\"30\",\"b\",\"k\",\"400\"\n");
  // Two processes named b: told apart by their ids.
  EXPECT_EQ(reference_applications(r), (std::vector<std::string>{"a.exe", "b [20]", "b [30]"}));
  const Reference a = application_reference(r, "a.exe");
  ASSERT_EQ(a.kernels.size(), 2u);
  EXPECT_EQ(a.kernels[1].id, 2u);  // ncu's ID 2, the application's second launch
  EXPECT_EQ(metric(a.kernels[1], RefMetric::Cycles), 300);
  // One process: no application to tell apart.
  EXPECT_EQ(reference_applications(parse("\"ID\",\"Process ID\",\"Process Name\",\"Kernel Name\",\"gpc__cycles_elapsed.max\"\n"
                                         "\"\",\"\",\"\",\"\",\"cycle\"\n\"0\",\"10\",\"a\",\"k\",\"100\"\n")),
            std::vector<std::string>{""});
}
