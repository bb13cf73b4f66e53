// The metrics as named columns, shared by the text, CSV, JSON, validation
// and compare outputs so each metric is defined once. Keys carry their unit
// (stall-report(1), COLUMNS): counts end in _cycles, _insts or _requests,
// fractions (0..1) in _frac; ipc and sm_ipc are warp instructions per cycle.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/reference_stats.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

enum class Kind { Count, Ratio, Fraction };

struct Column {
  std::string key;    // CSV/JSON name, e.g. "l1_hit_frac", "stall_MemData_cycles"
  std::string title;  // text table heading
  Kind kind;
  std::function<std::optional<double>(const Metrics&)> get;
  std::optional<RefMetric> reference = std::nullopt;  // the reference metric it is validated against
};

// cycles, warp_insts, ipc, sm_ipc, occupancy_frac, l1/l2_hit_frac, gmem_requests.
const std::vector<Column>& summary_columns();
// Stall cycles per root type / per event; busy cycles and instructions per unit.
const std::vector<Column>& stall_type_columns();
const std::vector<Column>& stall_event_columns();
const std::vector<Column>& unit_busy_columns();
const std::vector<Column>& unit_insts_columns();

// All of the above, in that order: the metric columns of the CSV and JSON.
const std::vector<const Column*>& metric_columns();

// A breakdown whose columns are read as shares of a whole.
struct ShareGroup {
  std::string title;  // e.g. "Stall cycles by type"
  std::string whole_name;  // "stall cycles"
  const std::vector<Column>* columns;
  double (*whole)(const Metrics&);
};
// Stall types, stall events, unit busy cycles, unit instructions.
const ShareGroup& stall_type_group();
const ShareGroup& stall_event_group();
const ShareGroup& unit_busy_group();
const ShareGroup& unit_insts_group();

// Text: counts rounded, ratios with 3 decimals, fractions as percentages.
std::string format_text(std::optional<double> v, Kind kind);
// CSV: plain numbers (fractions 0..1), empty when unknown.
std::string format_csv(std::optional<double> v, Kind kind);
// "12.5%"
std::string percent(double fraction);
// "+12.5%", "-0.3%"
std::string signed_percent(double fraction);

}  // namespace sasskit::stallreport
