// The metrics as named columns, shared by the text, CSV, JSON, validation
// and compare outputs so each metric is defined once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report.hpp"

namespace sasskit::stallreport {

enum class Kind { Count, Ratio, Fraction };

struct Column {
  std::string key;    // CSV/JSON name, e.g. "l1_hit_rate", "stall_MemData"
  std::string title;  // text table heading
  Kind kind;
  std::function<std::optional<double>(const Metrics&)> get;
};

// cycles, instructions, ipc, sm_ipc, occupancy, l1/l2 hit rate, gmem requests.
const std::vector<Column>& summary_columns();
// Stall cycles per root type / per event; busy cycles and instructions per unit.
const std::vector<Column>& stall_type_columns();
const std::vector<Column>& stall_event_columns();
const std::vector<Column>& unit_busy_columns();
const std::vector<Column>& unit_insts_columns();

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

}  // namespace sasskit::stallreport
