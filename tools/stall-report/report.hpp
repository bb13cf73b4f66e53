// What stall-report knows about a run: per kernel the stats record and the
// records that refine it (cache, sample, plan weight, SASS text), and the
// metrics derived from them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/metrics.hpp"
#include "formats/stats_record.hpp"
#include "formats/stream.hpp"

namespace sasskit::stallreport {

// A static PC of a kernel with its counts as simulated (no sample or plan
// scaling: they describe the simulated CTAs).
struct StalledPc {
  uint64_t pc = 0;
  uint64_t insts = 0;  // warp instructions issued at the PC
  std::array<uint64_t, kStallTypes> stall_type{};
  uint64_t stall_cycles = 0;
  double share = 0;  // of the kernel's stall cycles
  StallType main_type = StallType::Other;  // the type with most cycles at the PC
  std::string sass;                        // "LDG.E R4, R2" style text; empty without insts
};

struct KernelReport {
  uint32_t id = 0;
  std::string name;
  std::string gpu;
  double weight = 1;        // plan weight (invocations this one stands for)
  double sample_scale = 1;  // kernel / sampled instructions
  uint32_t shards = 1;      // CTA-range shards merged into this row (runs.hpp)
  Metrics m;                // this invocation, sample scale applied
  std::vector<StalledPc> top_pcs;  // the most stalled, most first
  std::vector<StalledPc> pcs;      // every PC with activity, by PC (GatherOptions::all_pcs)
};

struct Report {
  std::string source;  // input name
  std::string run;     // the run's label (--label, else the input's file name)
  std::string gpu;     // GPU model of the simulating stages (provenance, else the stats records)
  std::string config;  // their options (runs.hpp)
  std::vector<stream::Stage> provenance;  // the stream header's, first stage first
  std::vector<KernelReport> kernels;
  Metrics totals;         // the application, weights applied
  bool projected = false; // plan weights or sample scales were applied
  std::string plan_method;
  std::optional<double> plan_error_bound;  // the plan's relative error bound, when it states one
};

}  // namespace sasskit::stallreport
