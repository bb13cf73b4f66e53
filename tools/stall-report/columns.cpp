#include "columns.hpp"

#include <cmath>
#include <cstdio>

namespace sasskit::stallreport {

namespace {

template <class Get>
Column col(std::string key, std::string title, Kind kind, Get get) {
  return {std::move(key), std::move(title), kind, [get](const Metrics& m) -> std::optional<double> { return get(m); }};
}

// One column per element of a per-class array of Metrics.
template <class Name, class Array>
std::vector<Column> array_columns(const std::string& prefix, size_t n, Name name, Array array) {
  std::vector<Column> cols;
  for (size_t i = 0; i < n; ++i) {
    std::string label = name(i);
    cols.push_back(col(prefix + label, label, Kind::Count, [i, array](const Metrics& m) { return (m.*array)[i]; }));
  }
  return cols;
}

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

const std::vector<Column>& summary_columns() {
  static const std::vector<Column> cols = {
      col("cycles", "cycles", Kind::Count, [](const Metrics& m) { return m.cycles; }),
      col("instructions", "instructions", Kind::Count, [](const Metrics& m) { return m.instructions; }),
      col("ipc", "IPC", Kind::Ratio, [](const Metrics& m) { return m.ipc(); }),
      col("sm_ipc", "SM IPC", Kind::Ratio, [](const Metrics& m) { return m.sm_ipc(); }),
      col("occupancy", "occupancy", Kind::Fraction, [](const Metrics& m) { return m.occupancy; }),
      col("l1_hit_rate", "L1 hit", Kind::Fraction, [](const Metrics& m) { return m.l1_hit_rate; }),
      col("l2_hit_rate", "L2 hit", Kind::Fraction, [](const Metrics& m) { return m.l2_hit_rate; }),
      col("gmem_requests", "gmem requests", Kind::Count, [](const Metrics& m) { return m.gmem_requests; }),
  };
  return cols;
}

const std::vector<Column>& stall_type_columns() {
  static const auto cols = array_columns(
      "stall_", kStallTypes, [](size_t i) { return std::string(stall_type_name(StallType(i))); }, &Metrics::stall_type);
  return cols;
}

const std::vector<Column>& stall_event_columns() {
  static const auto cols = array_columns(
      "event_", kStallEvents, [](size_t i) { return std::string(stall_event_name(StallEvent(i))); },
      &Metrics::stall_event);
  return cols;
}

const std::vector<Column>& unit_busy_columns() {
  static const auto cols = array_columns(
      "unit_busy_", kUnitClasses, [](size_t i) { return std::string(unit_name(UnitClass(i))); }, &Metrics::unit_busy);
  return cols;
}

const std::vector<Column>& unit_insts_columns() {
  static const auto cols = array_columns(
      "unit_insts_", kUnitClasses, [](size_t i) { return std::string(unit_name(UnitClass(i))); },
      &Metrics::unit_insts);
  return cols;
}

namespace {

template <size_t N>
double sum(const std::array<double, N>& a) {
  double s = 0;
  for (double v : a) s += v;
  return s;
}

}  // namespace

const ShareGroup& stall_type_group() {
  static const ShareGroup g{"Stall cycles by type", "stall cycles", &stall_type_columns(),
                            [](const Metrics& m) { return m.stall_cycles(); }};
  return g;
}

const ShareGroup& stall_event_group() {
  static const ShareGroup g{"Stall cycles by event", "stall cycles", &stall_event_columns(),
                            [](const Metrics& m) { return m.stall_cycles(); }};
  return g;
}

const ShareGroup& unit_busy_group() {
  static const ShareGroup g{"Execution-unit busy time", "busy cycles", &unit_busy_columns(),
                            [](const Metrics& m) { return sum(m.unit_busy); }};
  return g;
}

const ShareGroup& unit_insts_group() {
  static const ShareGroup g{"Instructions per execution unit", "instructions", &unit_insts_columns(),
                            [](const Metrics& m) { return sum(m.unit_insts); }};
  return g;
}

std::string percent(double fraction) { return printf_string("%.1f%%", fraction * 100); }

std::string format_text(std::optional<double> v, Kind kind) {
  if (!v) return "-";
  switch (kind) {
    case Kind::Count: return printf_string("%.0f", std::round(*v));
    case Kind::Ratio: return printf_string("%.3f", *v);
    case Kind::Fraction: return percent(*v);
  }
  return "-";
}

std::string format_csv(std::optional<double> v, Kind kind) {
  if (!v) return "";
  if (kind == Kind::Count && *v == std::floor(*v) && std::fabs(*v) < 1e15) return printf_string("%.0f", *v);
  return printf_string("%.10g", *v);
}

}  // namespace sasskit::stallreport
