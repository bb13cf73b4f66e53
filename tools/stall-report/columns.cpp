#include "columns.hpp"

#include <cmath>
#include <cstdio>

namespace sasskit::stallreport {

namespace {

template <class Get>
Column col(std::string key, std::string title, Kind kind, Get get, std::optional<RefMetric> reference = std::nullopt) {
  return {std::move(key), std::move(title), kind, [get](const Metrics& m) -> std::optional<double> { return get(m); },
          reference};
}

// One column per element of a per-class array of Metrics, keyed
// prefix + class + unit, e.g. "stall_" "MemData" "_cycles".
template <class Name, class Array>
std::vector<Column> array_columns(const std::string& prefix, const std::string& unit, size_t n, Name name,
                                  Array array) {
  std::vector<Column> cols;
  for (size_t i = 0; i < n; ++i) {
    std::string label = name(i);
    cols.push_back(
        col(prefix + label + unit, label, Kind::Count, [i, array](const Metrics& m) { return (m.*array)[i]; }));
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
  using M = const Metrics&;
  using R = RefMetric;
  static const std::vector<Column> cols = {
      col("cycles", "cycles", Kind::Count, [](M m) { return m.cycles; }, R::Cycles),
      col("warp_insts", "instructions", Kind::Count, [](M m) { return m.instructions; }, R::Instructions),
      col("ipc", "IPC", Kind::Ratio, [](M m) { return m.ipc(); }, R::Ipc),
      col("sm_ipc", "SM IPC", Kind::Ratio, [](M m) { return m.sm_ipc(); }, R::SmIpc),
      col("occupancy_frac", "occupancy", Kind::Fraction, [](M m) { return m.occupancy; }, R::Occupancy),
      col("l1_hit_frac", "L1 hit", Kind::Fraction, [](M m) { return m.l1_hit_rate; }, R::L1HitRate),
      col("l2_hit_frac", "L2 hit", Kind::Fraction, [](M m) { return m.l2_hit_rate; }, R::L2HitRate),
      col("gmem_requests", "gmem requests", Kind::Count, [](M m) { return m.gmem_requests; }, R::GmemRequests),
  };
  return cols;
}

const std::vector<Column>& stall_type_columns() {
  static const auto cols = array_columns(
      "stall_", "_cycles", kStallTypes, [](size_t i) { return std::string(stall_type_name(StallType(i))); },
      &Metrics::stall_type);
  return cols;
}

const std::vector<Column>& stall_event_columns() {
  static const auto cols = array_columns(
      "stall_event_", "_cycles", kStallEvents, [](size_t i) { return std::string(stall_event_name(StallEvent(i))); },
      &Metrics::stall_event);
  return cols;
}

const std::vector<Column>& unit_busy_columns() {
  static const auto cols = array_columns(
      "unit_", "_busy_cycles", kUnitClasses, [](size_t i) { return std::string(unit_name(UnitClass(i))); },
      &Metrics::unit_busy);
  return cols;
}

const std::vector<Column>& unit_insts_columns() {
  static const auto cols = array_columns(
      "unit_", "_warp_insts", kUnitClasses, [](size_t i) { return std::string(unit_name(UnitClass(i))); },
      &Metrics::unit_insts);
  return cols;
}

const std::vector<const Column*>& metric_columns() {
  static const std::vector<const Column*> cols = [] {
    std::vector<const Column*> all;
    for (const auto* group : {&summary_columns(), &stall_type_columns(), &stall_event_columns(), &unit_busy_columns(),
                              &unit_insts_columns()})
      for (const Column& c : *group) all.push_back(&c);
    return all;
  }();
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
std::string signed_percent(double fraction) { return printf_string("%+.1f%%", fraction * 100); }

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
