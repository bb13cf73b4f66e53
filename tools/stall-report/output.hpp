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
// "application": {...}, "provenance": [...]}]}, the same names as the CSV;
// a run with a reference (validations[i] for runs[i]) has "validation", and
// several have "suite" (pool_validations) beside "runs". A run's provenance
// is its stream's stages, then `self`, this run of stall-report.
void write_json(std::ostream& out, const std::vector<Report>& runs, const stream::Stage& self,
                const std::vector<Validation>& validations = {});
// --provenance-file: {"runs": [{"run", "provenance": [...]}]}, each run's
// provenance as write_json gives it, for a CSV or text report to keep
// beside it (the CSV itself carries none, so that it loads as it is).
void write_provenance_json(std::ostream& out, const std::vector<Report>& runs, const stream::Stage& self);

}  // namespace sasskit::stallreport
