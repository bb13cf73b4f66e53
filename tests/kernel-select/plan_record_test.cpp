#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "formats/plan_record.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

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
  EXPECT_EQ(rec.type(), stream::RecordType::Plan);
  EXPECT_EQ(stream::decode<Plan>(rec), sample_plan());
}

TEST(PlanRecord, CsvRoundTrip) {
  std::stringstream buf;
  write_plan_csv(buf, sample_plan());
  EXPECT_EQ(read_plan_csv(buf, "mem"), sample_plan());
}

TEST(PlanRecord, CsvHasNoCommentLinesAndOneRowPerEntry) {
  std::stringstream buf;
  write_plan_csv(buf, sample_plan());
  std::string header, row;
  std::getline(buf, header);
  std::getline(buf, row);
  EXPECT_EQ(header,
            "kernel_id,kernel_name,cluster,picks,weight,cluster_label,cluster_size,cluster_samples,cluster_mean,"
            "cluster_sd,method,unit,invocations,total,error_bound_frac,param_confidence,param_epsilon,param_seed");
  EXPECT_EQ(row, "2,gemm,0,1,3,gemm#0,6,2,1000.25,10.5,stem,ns,10,12345.5,0.0421,0.95,0.05,3");
}

TEST(PlanRecord, CommentedCsvOfEarlierVersionsIsRead) {
  std::istringstream in(
      "# sasskit plan\n# method=stem\n# param.seed=3\n# unit=ns\n# invocations=10\n# total=20\n"
      "# error_bound=0.1\n# cluster=k,10,2,2,0\nid,name,cluster,picks,weight\n4,k,0,2,10\n");
  const Plan p = read_plan_csv(in, "old.csv");
  EXPECT_EQ(p.method, "stem");
  EXPECT_EQ(p.params.at("seed"), 3);
  EXPECT_EQ(p.error_bound, 0.1);
  ASSERT_EQ(p.clusters.size(), 1u);
  EXPECT_EQ(p.clusters[0].size, 10u);
  EXPECT_EQ(p.entries, (std::vector<PlanEntry>{{4, "k", 0, 2, 10}}));
}

TEST(PlanRecord, ClusterWithoutRowIsReported) {
  std::stringstream buf;
  Plan p = sample_plan();
  p.entries.pop_back();  // the only entry of cluster 1
  p.entries[1].cluster = 2, p.clusters.push_back({"c", 1, 1, 1, 0});
  write_plan_csv(buf, p);
  EXPECT_EQ(test::error_of([&] { read_plan_csv(buf, "p.csv"); }), "p.csv: cluster 1 has no row");
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
  EXPECT_EQ(test::error_of([&] { read_plan_csv(in, "p.csv"); }), "p.csv:2: picks 'one' is not a non-negative integer");
}

}  // namespace
}  // namespace sasskit
