// The report in its three forms (--format text, csv, json).
#pragma once

#include <ostream>

#include "report.hpp"
#include "validate.hpp"

namespace sasskit::stallreport {

void write_text(std::ostream& out, const Report& rep);
// One row per kernel and a last row for the application (id "all").
void write_csv(std::ostream& out, const Report& rep);
// --pcs: one row per (kernel, static PC): kernel_id, kernel_name, pc (hex),
// warp_insts, stall_cycles, stall_TYPE_cycles..., main_stall, sass.
void write_pcs_csv(std::ostream& out, const Report& rep);
// {"source", "projected", "kernels": [...], "totals": {...}} and, with a
// reference, "validation".
void write_json(std::ostream& out, const Report& rep, const Validation* validation = nullptr);

}  // namespace sasskit::stallreport
