// Accel-Sim's get_stats.py CSV, built block by block as get_stats.py prints it.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "formats/profile.hpp"
#include "tests/support/error_of.hpp"

namespace sasskit::profile {
namespace {

// One statistic: the separator, the statistic's line, `header` and `rows`,
// each line padded with commas as get_stats.py pads them.
std::string block(const std::string& stat, const std::string& header, const std::vector<std::string>& rows) {
  const size_t columns = static_cast<size_t>(std::count(header.begin(), header.end(), ','));
  const std::string pad(columns, ',');
  std::string text = std::string(100, '-') + pad + "\n" + stat + pad + "\n" + header + "\n";
  for (const std::string& r : rows) text += r + "\n";
  return text;
}

Profile read(const std::string& text, const std::string& config = "") {
  std::istringstream in(text);
  return read_profile(in, "s.csv", ReadOptions{config});
}

std::string error_of(const std::string& text, const std::string& config = "") {
  return test::error_of([&] { read(text, config); });
}

const std::string kTwoConfigs = "APPS,QV100,RTX3070";

std::string per_launch() {
  return block("Accel-Sim-build", kTwoConfigs, {"app/a_1--all_kernels,accelsim-commit-1,accelsim-commit-1"}) +
         block(R"(gpu_sim_cycle\s*=\s*(.*))", kTwoConfigs,
               {"app/a_1--_Z1fv--0,100,110", "app/a_1--_Z1gv--0,NA,220", "app/a_1--_Z1fv--1,105,NA"}) +
         block(R"(\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*))", kTwoConfigs,
               {"app/a_1--_Z1fv--0,7,8", "app/a_1--_Z1gv--0,9,10", "app/a_1--_Z1fv--1,11,12"});
}

TEST(ProfileGetStats, PerLaunchRowsOfTheChosenConfig) {
  const Profile p = read(per_launch(), "QV100");
  EXPECT_EQ(p.layout, Layout::AccelsimStats);
  EXPECT_EQ(p.cycles_from, "gpu_sim_cycle");
  ASSERT_EQ(p.kernels.size(), 3u);  // the build block is not a kernel
  EXPECT_EQ(p.kernels[0].name, "_Z1fv");
  EXPECT_EQ(p.kernels[1].name, "_Z1gv");
  EXPECT_EQ(p.kernels[0].cycles, 100);
  EXPECT_FALSE(p.kernels[1].cycles.has_value());  // NA is missing, not 0
  EXPECT_EQ(p.kernels[2].cycles, 105);
  EXPECT_EQ(p.kernels[2].values.get("L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]"), "11");
  EXPECT_EQ(p.kernels[2].values.get("APPS"), "app/a_1");
  EXPECT_EQ(read(per_launch(), "RTX3070").kernels[1].cycles, 220);
}

TEST(ProfileGetStats, ConfigsAsRowsReadAsColumns) {
  const std::string header = "CFG,app/a_1--_Z1fv--0,app/a_1--_Z1gv--0";
  const Profile p = read(block(R"(gpu_tot_sim_cycle\s*=\s*(.*))", header, {"QV100,100,300", "RTX3070,90,NA"}), "RTX3070");
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.cycles_from, "gpu_tot_sim_cycle");
  EXPECT_EQ(p.kernels[0].cycles, 90);
  EXPECT_FALSE(p.kernels[1].cycles.has_value());
}

TEST(ProfileGetStats, PerNameRowsCountTheirLaunchesAndAverageIsNoConfig) {
  const std::string header = "APPS,QV100,AVG";
  const Profile p = read(block("k-count", header, {"app--_Z1fv,3,3"}) +
                         block(R"(gpu_sim_cycle\s*=\s*(.*))", header, {"app--_Z1fv,300,300"}));
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].launches, 3u);
  EXPECT_EQ(p.kernels[0].cycles, 300);
}

TEST(ProfileGetStats, ShapesAndConfigsThatAreRefused) {
  EXPECT_EQ(error_of(per_launch()), "s.csv:3: several configs (QV100, RTX3070); choose one "
                                    "(kernel-select --profile-config, stall-report --reference-config)");
  EXPECT_EQ(error_of(per_launch(), "V100"), "s.csv:3: no config 'V100' (configs: QV100, RTX3070)");
  const std::string one = "APPS,QV100";
  const std::string cycles = R"(gpu_sim_cycle\s*=\s*(.*))";
  EXPECT_EQ(error_of(block(cycles, "APP,QV100", {"a--k,1"})), "s.csv:3: expected a get_stats.py header starting "
                                                             "with APPS (configs as columns) or CFG (-R)");
  EXPECT_EQ(error_of(block(cycles, one, {"a--k,1", "a--k,2"})), "s.csv:5: a second row for 'a--k' in gpu_sim_cycle");
  EXPECT_EQ(error_of(block(cycles, one, {"a-k,1"})), "s.csv:4: 'a-k' is not APP--KERNEL");
  EXPECT_EQ(error_of(block(cycles, one, {"a--k,1,2"})), "s.csv:4: 3 fields, expected 2 as in the header on line 3");
  EXPECT_EQ(error_of(block(cycles, one, {"a--k,1"}) + block(cycles, "APPS,RTX3070", {"a--k,1"})),
            "s.csv:7: configs RTX3070 differ from the first statistic's");
  EXPECT_EQ(error_of(block(cycles, one, {}) + block(cycles, one, {})), "s.csv: get_stats.py CSV without kernel rows");
  EXPECT_EQ(error_of(block(cycles, "APPS", {"a--k"})), "s.csv:3: a statistic without configs");
  EXPECT_EQ(error_of(block(cycles, "CFG,a--k", {})), "s.csv:3: a statistic without configs");
}

}  // namespace
}  // namespace sasskit::profile
