// pipe-sim's JSON summary counts a projected kernel's instructions as
// stall-report does: the trace's count over the projected cycles.
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
  EXPECT_NE(json.find("\"instructions\":4000,\"ipc\":10,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"total_cycles\":400,\"instructions\":4000"), std::string::npos) << json;
}

TEST(JsonSummary, UnprojectedKernelReportsTheSimulatedIpc) {
  KernelResult r;
  r.stats.cycles = 50;
  r.stats.total.insts = 100;
  r.stats.projection.projected_insts = 4000;  // ignored: no projection
  std::ostringstream out;
  write_json_summary(out, "test", {r});
  EXPECT_NE(out.str().find("\"instructions\":100,\"ipc\":2,"), std::string::npos) << out.str();
}
