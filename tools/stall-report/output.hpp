// The report in its three forms (--format text, csv, json).
#pragma once

#include <ostream>
#include <vector>

#include "report.hpp"
#include "validate.hpp"

namespace sasskit::stallreport {

void write_text(std::ostream& out, const Report& rep);
// The tidy table: per run one row per kernel (scope "kernel", numeric
// kernel_id) and one for the application (scope "application", no id);
// columns run, gpu, config, ... as stall-report(1) COLUMNS lists them.
void write_csv(std::ostream& out, const std::vector<Report>& runs);
// --pcs: one row per (run, kernel, static PC): run, kernel_id, kernel_name,
// pc (hex), warp_insts, stall_cycles, stall_TYPE_cycles..., main_stall, sass.
void write_pcs_csv(std::ostream& out, const std::vector<Report>& runs);
// {"runs": [{"run", "gpu", "config", "source", ..., "kernels": [...],
// "application": {...}}]}, the same names as the CSV; a run with a reference
// (validations[i] for runs[i]) has "validation", and several have "suite"
// (pool_validations) beside "runs".
void write_json(std::ostream& out, const std::vector<Report>& runs, const std::vector<Validation>& validations = {});

}  // namespace sasskit::stallreport
