// --plot FILE: stacked stall bars per kernel and for the application, and the
// execution-unit busy-time and instruction shares, drawn by gnuplot.
#pragma once

#include <string>

#include "report.hpp"

namespace sasskit::stallreport {

// The gnuplot script (data inline) that draws `rep` with `terminal` into `output`.
std::string plot_script(const Report& rep, const std::string& terminal, const std::string& output);

// The terminal for a file name: "svg" for .svg, "pngcairo" for .png; a
// usage error for anything else.
std::string plot_terminal(const std::string& path);

// Runs gnuplot; the file appears only when gnuplot succeeded. Fails with
// an install hint when gnuplot is not on PATH.
void write_plot(const Report& rep, const std::string& path);

}  // namespace sasskit::stallreport
