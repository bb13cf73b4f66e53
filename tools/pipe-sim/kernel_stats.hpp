// Merging the SMs of a kernel into its stats record, in SM order.
#pragma once

#include <vector>

#include "formats/stats_record.hpp"
#include "sm.hpp"

namespace sasskit::pipesim {

// `sms` in ascending SM order. Fills counters, per-SM and per-PC columns
// and the projection; the caller sets identity, timeline and sources.
void merge_sm_results(const KernelProgram& program, const std::vector<SmResult>& sms, KernelStats& out);

}  // namespace sasskit::pipesim
