// What simulating one SM produces: its counters, per-PC instruction and
// stall counts, cycles, and the optional per-cycle stall trace.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "formats/stats_record.hpp"
#include "stall.hpp"

namespace sasskit::pipesim {

// One row of --trace-stalls: what a scheduler did in a cycle.
struct StallTraceRow {
  uint64_t cycle = 0;
  uint8_t subcore = 0;
  bool issued = false;
  Attribution why;     // when not issued
  uint64_t pc = 0;     // issued instruction, or the blamed one
  bool has_pc = false;
};

struct SmResult {
  uint32_t sm = 0;
  SimCounters counters;
  std::vector<uint64_t> pc_insts;                            // per KernelProgram::pcs
  std::array<std::vector<uint64_t>, kStallTypes> pc_stalls;  // per stall type, per pc
  uint64_t cycles = 0;             // simulated
  uint64_t projected_cycles = 0;   // = cycles unless PKP stopped the SM
  uint64_t simulated_insts = 0;
  uint64_t trace_insts = 0;        // dynamic instructions of all the SM's CTAs
  uint32_t unfinished_ctas = 0;
  bool projected = false;
  std::vector<StallTraceRow> trace;
};

}  // namespace sasskit::pipesim
