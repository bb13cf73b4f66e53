// pipe-sim's JSON summary counts as stall-report does, under its names: a
// projected kernel's instructions are the trace's count over the projected
// cycles, a CTA-sampled kernel's counts are scaled by its sample, and
// stall shares are of the stall cycles.
#include <gtest/gtest.h>

#include <sstream>

#include "output.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;

TEST(JsonSummary, ProjectedKernelReportsTheProjectedIpc) {
  KernelResult r;
  r.stats.kernel_id = 1;
  r.stats.cycles = 400;  // projected
  r.stats.total.insts = 100;  // simulated
  r.stats.projection.applied = true;
  r.stats.projection.simulated_cycles = 100;
  r.stats.projection.projected_cycles = 400;
  r.stats.projection.simulated_insts = 100;
  r.stats.projection.projected_insts = 4000;
  std::ostringstream out;
  write_json_summary(out, "test", {r});
  const std::string json = out.str();
  EXPECT_NE(json.find("\"cycles\":400,\"warp_insts\":4000,\"ipc\":10,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"application\":{\"sampling_error_frac\":null,\"cycles\":400,\"warp_insts\":4000"), std::string::npos) << json;
  EXPECT_NE(json.find("\"timeline_cycles\":400}"), std::string::npos) << json;
}

TEST(JsonSummary, UnprojectedKernelReportsTheSimulatedIpc) {
  KernelResult r;
  r.stats.cycles = 50;
  r.stats.total.insts = 100;
  r.stats.projection.projected_insts = 4000;  // ignored: no projection
  std::ostringstream out;
  write_json_summary(out, "test", {r});
  EXPECT_NE(out.str().find("\"warp_insts\":100,\"ipc\":2,"), std::string::npos) << out.str();
}

TEST(JsonSummary, SampledKernelIsScaledAndSharesAreOfStallCycles) {
  KernelResult r;
  r.stats.kernel_id = 7;
  r.stats.cycles = 100;
  r.stats.total.insts = 50;
  r.stats.total.stall_type[size_t(StallType::MemData)] = 30;
  r.stats.total.stall_type[size_t(StallType::Idle)] = 10;
  KernelSample s;
  s.kernel_insts = 200;
  s.sample_insts = 50;  // scale 4
  s.sampling_error = -0.25;
  std::ostringstream out;
  write_json_summary(out, "test", {r}, {s});
  const std::string json = out.str();
  EXPECT_NE(json.find("\"kernel_id\":7,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"sample_scale\":4,\"sampling_error_frac\":-0.25,\"sampling_method\":\"limits\","), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"warp_insts\":200,\"ipc\":2,\"stall_cycles\":160,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"stall_MemData_cycles\":120,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"stall_MemData_frac\":0.75,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"stall_Idle_frac\":0.25,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"application\":{\"sampling_error_frac\":-0.25,"), std::string::npos) << json;
}

// The JSON sink writes nothing until finish(), then write_json_summary's
// summary of the kernels it was handed, with their samples.
TEST(JsonSink, WritesTheSummaryOfItsKernelsAtFinish) {
  KernelResult a, b;
  a.stats.kernel_id = 1;
  a.stats.cycles = 50;
  a.stats.total.insts = 100;
  b.stats.kernel_id = 2;
  b.stats.cycles = 80;
  KernelSample s;
  s.kernel_insts = 400;
  s.sample_insts = 100;
  std::ostringstream out;
  const std::vector<stream::Stage> provenance{{"pipe-sim", "0", {"pipe-sim"}}};
  const auto sink = json_sink(out, "test", provenance);
  EXPECT_FALSE(sink->keeps_records());
  sink->result(SimulatedKernel{a, std::nullopt});
  sink->result(SimulatedKernel{b, s});
  EXPECT_EQ(out.str(), "");
  sink->finish();
  std::ostringstream expected;
  write_json_summary(expected, "test", {a, b}, {std::nullopt, s}, provenance);
  EXPECT_EQ(out.str(), expected.str());
  EXPECT_NE(out.str().find("\"sample_scale\":4"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(",\"provenance\":[{\"tool\":\"pipe-sim\",\"version\":\"0\",\"argv\":[\"pipe-sim\"]}]}"),
            std::string::npos)
      << out.str();
}
