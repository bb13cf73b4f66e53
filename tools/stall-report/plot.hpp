// --plot FILE: absolute CPI stacks per kernel and for the application,
// the application's cycles by kernel, execution-unit busy time and, with
// --reference, simulated-versus-reference scatters; for several runs, CPI
// stacks side by side, the application's scheduler cycles and its cycles
// and speedup per run. Drawn by gnuplot from the tables of plot_table.hpp.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"
#include "validate.hpp"

namespace sasskit::stallreport {

// The gnuplot script (data inline) that draws one run with `terminal` into
// `output`; `validation` may be null.
std::string plot_script(const Report& rep, const Validation* validation, const std::string& terminal,
                        const std::string& output);
// The script for N runs side by side.
std::string compare_plot_script(const std::vector<Report>& runs, const std::string& terminal,
                                const std::string& output);

// The terminal for a file name: "svg" for .svg and for .gp (a script that
// draws FILE.svg), "pngcairo" for .png, "pdfcairo" for .pdf; a usage error
// for anything else or for a name with control characters.
std::string plot_terminal(const std::string& path);

// Run gnuplot; the file appears only when gnuplot succeeded. Fail with an
// install hint when gnuplot is not on PATH.
void write_plot(const Report& rep, const Validation* validation, const std::string& path);
void write_compare_plot(const std::vector<Report>& runs, const std::string& path);
// Several runs with references: one scatter per metric (validation_scatter)
// over every matched kernel of the suite (pool_validations) and, where the
// references have stall reasons, their kernels' stall bars, simulated beside
// the profiler's (stall_comparison_table, each kernel named with its run).
std::string correlation_plot_script(const std::vector<Validation>& runs, const std::string& terminal,
                                    const std::string& output);
void write_correlation_plot(const std::vector<Validation>& runs, const std::string& path);

}  // namespace sasskit::stallreport
