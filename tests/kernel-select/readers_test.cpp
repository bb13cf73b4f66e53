#include <gtest/gtest.h>

#include <sstream>

#include "formats/records.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

Profile read(const std::string& text) {
  std::istringstream in(text);
  return from_export(profile::read_profile(in, "t.csv"));
}

std::string error_of(const std::string& text) {
  return test::error_of([&] { read(text); });
}

TEST(Readers, NsysKernExecTrace) {
  Profile p = read(
      "API Start (ns),API Dur (ns),Queue Start (ns),Queue Dur (ns),Kernel Start (ns),Kernel Dur "
      "(ns),Total Dur (ns),PID,TID,DevId,API Function,GridXYZ,BlockXYZ,Kernel Name\n"
      "1,2,,,5,1200,7,9,9,0,cudaLaunchKernel_v7000,  128    1    1 ,  256    1    1 ,\"void "
      "foo<int, 2>(int*)\"\n"
      "8,2,,,15,800,7,9,9,0,cudaLaunchKernel_v7000,  64    2    1 ,  32    1    1 ,bar\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.names[0], "void foo<int, 2>(int*)");
  EXPECT_EQ(p.duration, (std::vector<double>{1200, 800}));
  EXPECT_EQ(p.ctas, (std::vector<uint64_t>{128, 128}));
  EXPECT_EQ(p.warps, (std::vector<uint64_t>{128 * 8, 128}));
  EXPECT_EQ(p.id, (std::vector<uint64_t>{1, 2}));
}

TEST(Readers, NsysGpuTraceSkipsMemoryCopies) {
  Profile p = read(
      "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem "
      "(MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name\n"
      "10,500,1,,,,,,,,,,0.004,8.0,Pageable,Device,GPU 0,1,7,[CUDA memcpy HtoD]\n"
      "20,1500,2,4,1,1,128,1,1,32,0,0,,,,,GPU 0,1,7,kernelA\n"
      "30,1700,3,4,1,1,128,1,1,32,0,0,,,,,GPU 0,1,7,kernelA\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.duration, (std::vector<double>{1500, 1700}));
  EXPECT_EQ(p.ctas, (std::vector<uint64_t>{4, 4}));
}

TEST(Readers, NcuRawPage) {
  Profile p = read(
      "\"ID\",\"Kernel Name\",\"gpc__cycles_elapsed.max\",\"smsp__inst_executed.sum\","
      "\"launch__grid_size\",\"launch__block_size\"\n"
      "\"\",\"\",\"cycle\",\"inst\",\"\",\"\"\n"
      "\"0\",\"k1\",\"12,345\",\"1,000\",\"80\",\"256\"\n"
      "\"1\",\"k2\",\"2,000\",\"300\",\"2\",\"64\"\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.unit, "cycles");
  EXPECT_EQ(p.duration, (std::vector<double>{12345, 2000}));
  EXPECT_EQ(p.id, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(p.insts, (std::vector<double>{1000, 300}));
  EXPECT_EQ(p.warps, (std::vector<uint64_t>{640, 4}));
  EXPECT_EQ(p.feature_names,
            (std::vector<std::string>{"smsp__inst_executed.sum", "launch__grid_size"}));
}

TEST(Readers, NcuDetailsPage) {
  Profile p = read(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric "
      "Unit\",\"Metric Value\"\n"
      "\"0\",\"1\",\"k\",\"Command line profiler metrics\",\"gpc__cycles_elapsed.max\",\"cycle\",\"5,000\"\n"
      "\"0\",\"1\",\"k\",\"Command line profiler metrics\",\"smsp__inst_executed.sum\",\"inst\",\"700\"\n"
      "\"1\",\"1\",\"k\",\"Command line profiler metrics\",\"gpc__cycles_elapsed.max\",\"cycle\",\"6000\"\n"
      "\"1\",\"1\",\"k\",\"Command line profiler metrics\",\"smsp__inst_executed.sum\",\"inst\",\"800\"\n");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.duration, (std::vector<double>{5000, 6000}));
  EXPECT_EQ(p.features, (std::vector<double>{700, 800}));
}

TEST(Readers, PlainWithExtraColumns) {
  Profile p = read("id,name,duration,insts,ctas,loads\n7,a,10,100,4,3\n9,b,20,200,8,5\n");
  EXPECT_EQ(p.id, (std::vector<uint64_t>{7, 9}));
  EXPECT_EQ(p.insts, (std::vector<double>{100, 200}));
  EXPECT_EQ(p.ctas, (std::vector<uint64_t>{4, 8}));
  EXPECT_EQ(p.feature_names, std::vector<std::string>{"loads"});
  EXPECT_EQ(p.features, (std::vector<double>{3, 5}));
}

TEST(Readers, WideRaggedWithBom) {
  Profile p = read("\xEF\xBB\xBFk1,k2\r\n10,20\r\n11,\r\n,22\r\n");
  EXPECT_EQ(p.names, (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(p.duration, (std::vector<double>{10, 11, 20, 22}));
  EXPECT_EQ(p.id, (std::vector<uint64_t>{1, 2, 3, 4}));
}

TEST(Readers, LoneLaunchNeedsNoDuration) {
  Profile p = read("id,name,insts\n3,a,40\n");
  EXPECT_EQ(p.id, (std::vector<uint64_t>{3}));
  EXPECT_EQ(p.duration, (std::vector<double>{0}));
  EXPECT_EQ(p.duration_from, "");
}

TEST(Readers, BadInputsNameTheProblem) {
  EXPECT_EQ(error_of(""), "t.csv: empty profile: no CSV header found");
  EXPECT_EQ(error_of("id,name,duration\n1,a,x\n"), "t.csv:2: duration 'x' is not a number");
  EXPECT_EQ(error_of("id,name,duration\n1,a,-3\n2,a,4\n"), "t.csv:2: duration '-3' is negative");
  EXPECT_EQ(error_of("id,name\n1,a\n2,a\n"),
            "t.csv:2: kernel 'a' has no duration: expected gpc__cycles_elapsed.*, gpu__time_duration.sum, the Elapsed "
            "Cycles or Duration sections, a Duration column or a duration column");
  EXPECT_EQ(error_of("when,what\nmonday,lunch\n"),
            "t.csv:1: unknown profile layout (columns: when, what); expected ncu --csv, nvprof --csv, "
            "nsys stats --format csv, Accel-Sim statistics, 'id,name,...' or one column per kernel name "
            "(see formats/PROFILES.md)");
  EXPECT_EQ(error_of("id,name,duration\n1,a,1e999\n2,a,4\n"), "t.csv:2: duration '1e999' is not a number");
  EXPECT_EQ(error_of("id,name,duration\n1,a,nan\n2,a,4\n"), "t.csv:2: duration 'nan' is not a number");
  EXPECT_EQ(error_of("id,name,duration\n-1,a,3\n2,a,4\n"),
            "t.csv:2: id '-1' is not a count (a whole number, 0 to 2^53)");
  EXPECT_EQ(error_of("id,name,duration,loads\n1,a,3,7\n2,a,4,\n"), "t.csv:3: kernel 'a' has no loads");
  EXPECT_EQ(error_of("id,name,duration,ctas\n1,a,3,1e30\n2,a,4,1\n"),
            "t.csv:2: ctas '1e30' is not a count (a whole number, 0 to 2^53)");
}

TEST(Readers, StreamCountsWarpInstructionsAndBasicBlocks) {
  std::stringstream buf;
  stream::Writer w(buf, "mem", stream::Header{}, stream::Stage{"test", "0", {}});
  KernelInfo k;
  k.id = 1;
  k.name = "loop";
  k.grid = {2, 1, 1};
  k.block = {64, 1, 1};
  w.write(k);
  InstTable t{1, 0, {}};
  for (uint64_t pc : {0x00, 0x10, 0x20, 0x30}) t.insts.push_back(StaticInst{pc, {}, "OP", {}, {}, 0, {}});
  w.write(t);
  // 0 1 2 1 2 3: a loop back from 0x20 to 0x10 -> blocks at 0x00, 0x10, 0x30.
  WarpTrace warp{0, {0, 1, 2, 1, 2, 3}, std::vector<uint32_t>(6, ~0u), {}, {}};
  WarpTrace second = warp;
  second.warp_id = 1;
  w.write(CtaTrace{1, {0, 0, 0}, {warp, second}});
  w.write(CtaTrace{1, {1, 0, 0}, {warp, second}});
  k.id = 2;
  w.write(k);
  w.finish();
  stream::Reader r(buf, "mem");
  int passed = 0;
  Profile p = read_stream_profile(r, [&](const stream::Record&) { ++passed; });
  EXPECT_EQ(passed, 5);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.unit, "warp-insts");
  EXPECT_EQ(p.duration, (std::vector<double>{24, 0}));
  EXPECT_EQ(p.warps, (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(p.bbv[0], (Bbv{{0x00, 4}, {0x10, 16}, {0x30, 4}}));
}

}  // namespace
}  // namespace sasskit::kselect
