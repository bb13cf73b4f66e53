// Options that several tools declare alike, declared once so that they are
// spelt, described and checked the same in each: the stream a filter reads
// and writes, and how it places CTAs on SMs.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace sasskit {

// A stream filter's input and output (cta-sample, rd-cache, pipe-sim).
struct StreamIo {
  std::string input = "-";
  std::string output = "-";
  std::string format = "stream";  // or "json": a summary per kernel
};

// Adds the positional input, -o/--output (described as `output_what`, e.g.
// "Output stream or JSON") and --format stream|json; returns --format.
CLI::Option* add_stream_io_options(CLI::App& app, StreamIo& io, const std::string& output_what);

// How a tool places CTAs where no sched record gives their placement.
struct PlacementChoice {
  std::string policy = "round-robin";  // a name of kSchedPolicies (cta_schedule.hpp)
  bool serial_kernels = false;         // one kernel at a time (placement.hpp)
};

struct PlacementOptions {
  CLI::Option* policy;
  CLI::Option* serial_kernels;
};

// Adds --sched-policy and --serial-kernels.
PlacementOptions add_placement_options(CLI::App& app, PlacementChoice& choice);

}  // namespace sasskit
