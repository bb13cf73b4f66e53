// Every real profiler export in ../shared/data/profiles/real read without
// edits: kernel count, launch count and total kernel time against values
// computed from the files by other means (the command beside each row).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "formats/csv.hpp"
#include "formats/profile.hpp"

namespace sasskit::profile {
namespace {

const std::string kReal = std::string(SASSKIT_SHARED_DATA) + "/profiles/real/";

struct Expected {
  const char* file;
  Layout layout;
  size_t kernels;   // distinct names
  uint64_t launches;
  double total_ns;  // 0: the file holds no kernel times
};

// Computed with python3's csv module (the CSVs) or sqlite3 (the export):
//  ncu details: rows with Metric Name gpu__time_duration.sum, Metric Unit ns, summed;
//  ncu raw: rows after the units row, column gpu__time_duration[.sum] (nsecond) summed;
//  nvprof trace: rows with a Grid X, names without " [corrid]", Duration (ms / us) summed;
//  nvprof summary: distinct Kernel, Invocations; nvprof metrics trace: rows after the units row;
//  sqlite3 nsys-cloverleaf-a100.sqlite "select count(*), count(distinct s.value), sum(k.end-k.start)
//    from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id=k.demangledName" -> 1312|102|294404540
constexpr Expected kFiles[] = {
    {"ncu-details-gemm-naive-rtx5070.csv", Layout::NcuDetails, 1, 1, 9589248},
    {"ncu-raw-pka-tiny-rtx2070s.csv", Layout::NcuRaw, 25, 34, 126208},
    {"ncu-raw-vectoradd-gtx1080.csv", Layout::NcuRaw, 1, 3, 8160},
    {"ncu-raw-vectoradd-gtx1080.stdout.txt", Layout::NcuRaw, 1, 3, 8160},
    {"nsys-cloverleaf-a100.sqlite", Layout::NsysSqlite, 102, 1312, 294404540},
    {"nvprof-gputrace-matrixmul-gtx1080ti.csv", Layout::NvprofTrace, 1, 301, 23.031098e6},
    {"nvprof-gputrace-vectoradd-gtx1080.txt", Layout::NvprofTrace, 1, 1, 3264},
    {"nvprof-metrics-matrixmul-gtx1080ti.csv", Layout::NvprofSummary, 1, 301, 0},
    {"nvprof-metrics-vectoradd-gtx1080.txt", Layout::NvprofTrace, 1, 1, 0},
};

TEST(ProfileReal, EveryExportReadsWithoutEdits) {
  if (!std::filesystem::exists(kReal)) GTEST_SKIP() << "needs ../shared/data/profiles/real";
  size_t listed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kReal))
    listed += entry.is_regular_file();
  EXPECT_EQ(listed, std::size(kFiles)) << "a new export in profiles/real needs a row here";
  for (const Expected& e : kFiles) {
    SCOPED_TRACE(e.file);
    const Profile p = load_profile(kReal + e.file);
    EXPECT_EQ(layout_name(p.layout), std::string(layout_name(e.layout)));
    std::set<std::string> names;
    for (const Kernel& k : p.kernels) names.insert(k.name);
    EXPECT_EQ(names.size(), e.kernels);
    EXPECT_EQ(p.launch_count(), e.launches);
    if (e.total_ns == 0) {
      EXPECT_TRUE(p.time_from.empty()) << p.time_from;
    } else {
      EXPECT_NEAR(p.total_time_ns(), e.total_ns, e.total_ns * 1e-3);
    }
  }
}

TEST(ProfileReal, NcuOldAndNewCycleMetrics) {
  if (!std::filesystem::exists(kReal)) GTEST_SKIP() << "needs ../shared/data/profiles/real";
  const Profile old_names = load_profile(kReal + "ncu-raw-vectoradd-gtx1080.csv");
  EXPECT_EQ(old_names.cycles_from, "gpc__elapsed_cycles_max");
  ASSERT_EQ(old_names.kernels.size(), 3u);
  EXPECT_EQ(old_names.kernels[0].cycles, 5774);  // "5,774.00"
  EXPECT_EQ(old_names.kernels[2].id, 3u);        // ncu ID 2
  EXPECT_EQ(old_names.kernels[0].ctas, 1u);
  EXPECT_EQ(old_names.kernels[0].threads_per_cta, 1024u);
  const Profile pka = load_profile(kReal + "ncu-raw-pka-tiny-rtx2070s.csv");
  EXPECT_EQ(pka.cycles_from, "gpc__cycles_elapsed.avg");
  EXPECT_EQ(pka.time_from, "gpu__time_duration.sum");
}

}  // namespace
}  // namespace sasskit::profile

namespace sasskit::profile {
namespace {

const std::string kCorpus = std::string(SASSKIT_SHARED_DATA) + "/accelsim-corpus/";

// Accel-Sim's stdout for each corpus case: the kernels' gpu_sim_cycle add up
// to the accelsim_cycles column of the corpus's reference.csv (its
// gpu_tot_sim_cycle, written when the corpus was made).
TEST(ProfileReal, AccelsimLogsOfTheCorpus) {
  if (!std::filesystem::exists(kCorpus)) GTEST_SKIP() << "needs ../shared/data/accelsim-corpus";
  std::ifstream table(kCorpus + "reference.csv");
  std::string line;
  std::vector<std::string> head, row;
  std::getline(table, line);
  split_csv_line(line, head);
  const auto column = [&](const char* name) { return std::find(head.begin(), head.end(), name) - head.begin(); };
  const auto name_col = column("case"), cycles_col = column("accelsim_cycles");
  size_t logs = 0;
  while (std::getline(table, line)) {
    split_csv_line(line, row);
    const std::string log = kCorpus + "logs/" + row.at(name_col) + ".log.xz";
    if (!std::filesystem::exists(log)) continue;
    SCOPED_TRACE(log);
    ++logs;
    const Profile p = load_profile(log);
    EXPECT_EQ(p.layout, Layout::AccelsimLog);
    ASSERT_FALSE(p.kernels.empty());
    double cycles = 0;
    for (const Kernel& k : p.kernels) cycles += k.cycles.value_or(0);
    EXPECT_EQ(cycles, std::stod(row.at(cycles_col)));
    EXPECT_EQ(p.kernels.front().id, 1u);  // kernel_launch_uid
  }
  EXPECT_GT(logs, 0u);
}

}  // namespace
}  // namespace sasskit::profile
