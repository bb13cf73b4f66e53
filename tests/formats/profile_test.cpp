// Each profile layout on small synthetic exports, and the errors.
#include <gtest/gtest.h>

#include <sstream>

#include "formats/profile.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

namespace sasskit::profile {
namespace {

Profile read(const std::string& text) {
  std::istringstream in(text);
  return read_profile(in, "p.csv");
}

std::string error_of(const std::string& text) {
  return test::error_of([&] { read(text); });
}

TEST(Profile, NcuDetailsWithProgramOutputAndSections) {
  Profile p = read(
      "\xEF\xBB\xBF==PROF== Connected to process 1 (a.out)\n"
      "result: 42\n"
      "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"k(int*)\",\"(32, 2, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light\",\"Duration\",\"usecond\",\"1.50\"\n"
      "\"0\",\"k(int*)\",\"(32, 2, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light\",\"Elapsed Cycles\",\"cycle\",\"2,100\"\n"
      "\"0\",\"k(int*)\",\"(32, 2, 1)\",\"(4, 1, 1)\",\"Launch\",\"Device Name\",\"\",\"RTX, 2070\"\n"
      "\"1\",\"k(int*)\",\"(32, 2, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light\",\"Duration\",\"msecond\",\"0.002\"\n"
      "\"1\",\"k(int*)\",\"(32, 2, 1)\",\"(4, 1, 1)\",\"GPU Speed Of Light\",\"Elapsed Cycles\",\"cycle\",\"2800\"\n"
      "==PROF== Disconnected from process 1\n");
  EXPECT_EQ(p.layout, Layout::NcuDetails);
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.cycles_from, "Elapsed Cycles");
  EXPECT_EQ(p.time_from, "Duration");
  EXPECT_EQ(p.kernels[0].time_ns, 1500);
  EXPECT_EQ(p.kernels[1].time_ns, 2000);
  EXPECT_EQ(p.kernels[0].cycles, 2100);
  EXPECT_EQ(p.kernels[0].ctas, 4u);
  EXPECT_EQ(p.kernels[0].threads_per_cta, 64u);
  EXPECT_EQ(p.kernels[1].id, 2u);
  EXPECT_EQ(p.kernels[0].values.get("Device Name"), "RTX, 2070");  // a text metric is kept, not parsed
}

TEST(Profile, NcuRawTextColumnsAndTimeOnly) {
  Profile p = read(
      "\"ID\",\"Kernel Name\",\"device__attribute_display_name\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"\",\"usecond\"\n"
      "\"0\",\"a\",\"NVIDIA GeForce RTX 2070 SUPER\",\"3.5\"\n"
      "\"1\",\"b\",\"NVIDIA GeForce RTX 2070 SUPER\",\"1,000\"\n");
  EXPECT_EQ(p.layout, Layout::NcuRaw);
  EXPECT_TRUE(p.cycles_from.empty());
  EXPECT_EQ(p.total_time_ns(), 3500 + 1e6);
}

TEST(Profile, NvprofTraceUnitsMemcpyAndCorrelationIds) {
  Profile p = read(
      "==1== NVPROF is profiling process 1, command: ./a\n"
      "==1== Profiling result:\n"
      "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\",\"Block Z\",\"Device\",\"Name\"\n"
      "ms,ms,,,,,,,,\n"
      "1.0,0.5,,,,,,,\"GTX (0)\",\"[CUDA memcpy HtoD]\"\n"
      "2.0,0.25,2,3,1,64,1,1,\"GTX (0)\",\"void k<int=1>(float*) [71]\"\n"
      "3.0,0.125,2,3,1,64,1,1,\"GTX (0)\",\"void k<int=1>(float*) [78]\"\n");
  EXPECT_EQ(p.layout, Layout::NvprofTrace);
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[1].name, "void k<int=1>(float*)");
  EXPECT_EQ(p.kernels[1].id, 2u);
  EXPECT_EQ(p.kernels[0].ctas, 6u);
  EXPECT_EQ(p.total_time_ns(), 375000);
}

TEST(Profile, NvprofSummaryCountsInvocations) {
  Profile p = read(
      "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\",\"Total\"\n"
      "\"GTX (0)\",\"k\",301,\"inst_executed\",10,10,10,3010\n"
      "\"GTX (0)\",\"j\",2,\"inst_executed\",1,1,1,2\n");
  EXPECT_EQ(p.layout, Layout::NvprofSummary);
  EXPECT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.launch_count(), 303u);
}

TEST(Profile, NsysReportsWithPreamble) {
  Profile sum = read(
      "Processing [report1.sqlite] with [/opt/nsys/reports/cuda_gpu_kern_sum.py]... \n\n"
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "90.0,9000,3,3000.0,3000.0,2000,4000,1000.0,kernA\n"
      "10.0,1000,1,1000.0,1000.0,1000,1000,0.0,kernB\n");
  EXPECT_EQ(sum.layout, Layout::NsysKernSum);
  EXPECT_EQ(sum.launch_count(), 4u);
  EXPECT_EQ(sum.total_time_ns(), 10000);
  Profile old = read("Start,Duration,CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Name\n1,700,1,1,1,1,32,1,1,k\n");
  EXPECT_EQ(old.layout, Layout::NsysGpuTrace);
  EXPECT_EQ(old.total_time_ns(), 700);
}

TEST(Profile, AccelsimCsvAndLog) {
  Profile csv = read("kernel,kernel_id,stat,value\nfinal_kernel,0,gpu_tot_sim_cycle,1282\n"
                     "final_kernel,0,kernel_launch_uid,1\n");
  EXPECT_EQ(csv.layout, Layout::AccelsimCsv);
  EXPECT_EQ(csv.kernels.at(0).cycles, 1282);
  EXPECT_EQ(csv.kernels.at(0).id, 1u);
}

TEST(Profile, BadExportsNameTheLine) {
  const std::string ncu_head = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n";
  EXPECT_EQ(error_of(ncu_head + "\"\",\"\",\"furlong\"\n\"0\",\"a\",\"3\"\n"),
            "p.csv:3: gpu__time_duration.sum is in 'furlong', expected a time unit (ns, us, ms, s or nsecond, "
            "usecond, msecond, second)");
  EXPECT_EQ(error_of(ncu_head + "\"\",\"\",\"nsecond\"\n\"0\",\"a\",\"fast\"\n"),
            "p.csv:3: gpu__time_duration.sum 'fast' is not a number");
  EXPECT_EQ(error_of(ncu_head + "\"\",\"\",\"nsecond\"\n\"0\",\"a\",\"-3\"\n"),
            "p.csv:3: gpu__time_duration.sum '-3' is negative");
  EXPECT_EQ(error_of(ncu_head + "\"\",\"\",\"nsecond\"\n\"x\",\"a\",\"3\"\n"), "p.csv:3: ID 'x' is not a number");
  EXPECT_EQ(error_of("\"Start\",\"Duration\",\"Grid X\",\"Device\",\"Name\"\n1,2,1,\"G\",\"k\"\n"),
            "p.csv:2: no units row under the nvprof header: the unit of Duration is unknown");
  EXPECT_EQ(error_of("==1== only notes\n\n"), "p.csv: empty profile: no CSV header found");
  EXPECT_EQ(error_of(ncu_head + "\"\",\"\",\"nsecond\"\n\"0\",\"a\"\n"),
            "p.csv:3: 2 fields, expected 3 as in the header on line 1");
}

// The readers go through the file's lines twice, from a spill file once
// they pass what the process keeps in memory (4 MiB): rows, a quoted field
// holding a line break and the line numbers of messages stay the same there.
TEST(Profile, LongerThanTheSpillsMemoryShare) {
  std::string text = "id,name,cycles,share\n";
  const int rows = 200000;  // about 6 MB
  for (int i = 1; i <= rows; ++i) text += std::to_string(i) + ",kernel_" + std::to_string(i % 7) + "," + std::to_string(i) + ",0.5\n";
  Profile p = read(text);
  ASSERT_EQ(p.layout, Layout::Plain);
  ASSERT_EQ(p.kernels.size(), size_t(rows));
  EXPECT_EQ(p.kernels.back().cycles, rows);
  EXPECT_EQ(p.kernels.back().line, uint64_t(rows) + 1);
  // A later profiler header wins over the hand-made first line: the rows
  // after it, with a record across two lines near the end.
  const std::string ncu = "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\"\n\"\",\"\",\"cycle\"\n"
                          "\"0\",\"a\nb\",\"7\"\n\"1\",\"c\",\"9\"\n";
  Profile q = read(text + ncu);
  ASSERT_EQ(q.layout, Layout::NcuRaw);
  ASSERT_EQ(q.kernels.size(), 2u);
  EXPECT_EQ(q.kernels[0].name, "a\nb");
  EXPECT_EQ(q.kernels[1].line, uint64_t(rows) + 6);
  EXPECT_EQ(q.kernels[1].cycles, 9);
  EXPECT_EQ(error_of(text + "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\"\n\"\",\"\",\"cycle\"\n\"0\",\"a\n"),
            "p.csv:" + std::to_string(rows + 4) + ": unterminated quoted field");
  // An Accel-Sim log whose statistics come after megabytes of text.
  Profile log = read(text + "kernel_name = k\nkernel_launch_uid = 3\ngpu_sim_cycle = 5\n");
  ASSERT_EQ(log.layout, Layout::AccelsimLog);
  ASSERT_EQ(log.kernels.size(), 1u);
  EXPECT_EQ(log.kernels[0].line, uint64_t(rows) + 2);
  EXPECT_EQ(log.kernels[0].cycles, 5);
}

TEST(Profile, NumbersAsProfilersWriteThem) {
  EXPECT_EQ(parse_number("1,234.5"), 1234.5);
  EXPECT_EQ(parse_number("96.4%"), 96.4);
  EXPECT_FALSE(parse_number("Low (1)"));
  EXPECT_FALSE(parse_number(""));
  EXPECT_FALSE(parse_number("nan"));
  EXPECT_FALSE(parse_number("inf"));
}

}  // namespace
}  // namespace sasskit::profile
