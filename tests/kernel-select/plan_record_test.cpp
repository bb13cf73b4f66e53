#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "formats/plan_record.hpp"
#include "libcommon/diag.hpp"

namespace sasskit {
namespace {

Plan sample_plan() {
  Plan p;
  p.method = "stem";
  p.params = {{"epsilon", 0.05}, {"confidence", 0.95}, {"seed", 3}};
  p.unit = "ns";
  p.invocations = 10;
  p.total = 12345.5;
  p.error_bound = 0.0421;
  p.clusters = {{"gemm#0", 6, 2, 1000.25, 10.5}, {"void f<a, b>(\"x\")", 4, 1, 1500, 0}};
  p.entries = {{2, "gemm", 0, 1, 3}, {5, "gemm", 0, 1, 3}, {9, "void f<a, b>(\"x\")", 1, 1, 4}};
  return p;
}

TEST(PlanRecord, StreamRoundTrip) {
  std::stringstream buf;
  stream::Writer w(buf, "mem", stream::Header{}, stream::Stage{"test", "0", {}});
  w.write(sample_plan());
  w.finish();
  stream::Reader r(buf, "mem");
  stream::Record rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.type(), "plan");
  EXPECT_EQ(stream::decode<Plan>(rec), sample_plan());
}

TEST(PlanRecord, CsvRoundTrip) {
  std::stringstream buf;
  write_plan_csv(buf, sample_plan());
  EXPECT_EQ(read_plan_csv(buf, "mem"), sample_plan());
}

TEST(PlanRecord, LoadPlanAnswersWhichKernelsAreSelected) {
  const std::string path = ::testing::TempDir() + "/kselect-plan.csv";
  {
    std::ofstream out(path);
    write_plan_csv(out, sample_plan());
  }
  PlanSelection sel(load_plan(path));
  std::remove(path.c_str());
  EXPECT_TRUE(sel.selected(5));
  EXPECT_FALSE(sel.selected(4));
  ASSERT_NE(sel.entry(9), nullptr);
  EXPECT_EQ(sel.entry(9)->weight, 4);
  EXPECT_EQ(sel.plan().method, "stem");
}

TEST(PlanRecord, BadCsvIsReported) {
  std::istringstream in("id,name,cluster,picks,weight\n1,k,0,one,2\n");
  try {
    read_plan_csv(in, "p.csv");
    FAIL() << "accepted a bad plan";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "p.csv:2");
    EXPECT_EQ(std::string(e.what()), "picks 'one' is not a non-negative integer");
  }
}

}  // namespace
}  // namespace sasskit
