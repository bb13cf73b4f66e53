#include "plot_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "columns.hpp"
#include "compare.hpp"
#include "libcommon/kernel_name.hpp"
#include "metrics.hpp"

namespace sasskit::stallreport {

std::string plot_label(std::string_view text, size_t max) {
  std::string out;
  for (char c : text.substr(0, max)) {
    bool printable = c >= ' ' && c <= '~';
    bool special = c == '"' || c == '\'' || c == '`' || c == '\\' || c == '$' || c == '@' || c == '!' || c == '<' ||
                   c == '>' || c == '&';
    out += printable && !special ? c : '?';
  }
  return out;
}

namespace {

// Issue cycles (one per warp instruction) and stall cycles by type: the
// scheduler cycles of HyFiSS's stall accounting, insts + stalls.
std::vector<std::string> cycle_series() {
  std::vector<std::string> names{"issue"};
  for (const Column& c : stall_type_columns()) names.push_back(c.title);
  return names;
}

std::vector<double> cycle_split(const Metrics& m, double scale) {
  std::vector<double> v{m.instructions * scale};
  for (double s : m.stall_type) v.push_back(s * scale);
  return v;
}

std::vector<double> cpi_split(const Metrics& m) {
  return cycle_split(m, m.instructions > 0 ? 1 / m.instructions : 0);
}

double scheduler_cycles(const Metrics& m) { return m.instructions + m.stall_cycles(); }

// `row` is a stack of `m`: an error bar on its height of relative_error()'s
// size, where one is known.
PlotRow with_error(PlotRow row, const Metrics& m, std::optional<double> plan_bound = std::nullopt) {
  const std::optional<double> error = relative_error(m, plan_bound);
  if (!error) return row;
  double height = 0;
  for (double v : row.values) height += v;
  row.error = *error * height;
  return row;
}

// The application's stack of `rep`.
PlotRow with_error(PlotRow row, const Report& rep) { return with_error(std::move(row), rep.totals, rep.plan_error_bound); }

// "id baseName", as a bar's label.
std::string kernel_label(uint32_t id, const std::string& name) {
  return plot_label(std::to_string(id) + " " + base_kernel_name(demangle_kernel_name(name)));
}

std::string short_name(const KernelReport& k) { return kernel_label(k.id, k.name); }

// A bar: its label, its metrics and the weight that scales counts to the
// application (1 for rows already weighted).
struct Bar {
  std::string label;
  Metrics m;
  double weight;
  const KernelReport* kernel;  // null for "other" and the application
  std::optional<double> plan_bound = std::nullopt;  // the application's
};

// The heaviest kernels (by weighted scheduler cycles, ties by id), the rest
// merged into "other", then the application.
std::vector<Bar> bars(const Report& rep) {
  std::vector<const KernelReport*> order;
  for (const KernelReport& k : rep.kernels) order.push_back(&k);
  auto weight = [](const KernelReport* k) { return scheduler_cycles(k->m) * k->weight; };
  std::stable_sort(order.begin(), order.end(),
                   [&](const KernelReport* a, const KernelReport* b) { return weight(a) > weight(b); });
  std::vector<Bar> out;
  std::vector<KernelReport> rest;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i < kPlotKernels) out.push_back({short_name(*order[i]), order[i]->m, order[i]->weight, order[i]});
    else rest.push_back(*order[i]);
  }
  if (!rest.empty())
    out.push_back({"other (" + std::to_string(rest.size()) + " kernels)", application_totals(rest), 1, nullptr});
  out.push_back({rep.projected ? "application (projected)" : "application", rep.totals, 1, nullptr,
                 rep.plan_error_bound});
  return out;
}

// The power of 1000 that keeps the largest value below 10,000 units.
double thousands_scale(double largest, std::string& unit) {
  static const char* names[] = {"", " (thousands)", " (millions)", " (billions)"};
  double scale = 1;
  for (int i = 0; i < 3 && largest / scale >= 1e4; ++i) {
    scale *= 1000;
    unit = names[i + 1];
  }
  return scale;
}

// A run's bar in a CPI group: its label, short, for the bars are narrow;
// in the application charts its number and label.
std::string run_tag(const Report& run) { return plot_label(run.run, 16); }
std::string run_label(const std::vector<Report>& runs, size_t i) {
  return std::to_string(i + 1) + " " + plot_label(runs[i].run, 32);
}

// The error bars' key entry of one run's charts: with the CTA sample's
// estimate method where it has one (cta-sample(1), SAMPLING ERROR).
std::string error_title(const Report& rep) {
  if (!rep.totals.sampling_error) return "error estimate";
  return std::string("error estimate (CTA sampling: ") + sampling_method_name(rep.totals.sampling_method) + ")";
}

}  // namespace

PlotTable cpi_stack_table(const Report& rep) {
  PlotTable t{"CPI stack per warp scheduler", "cycles per warp instruction", cycle_series(), {{}}};
  t.error_title = error_title(rep);
  for (const Bar& b : bars(rep)) t.groups[0].rows.push_back(with_error({b.label, cpi_split(b.m)}, b.m, b.plan_bound));
  return t;
}

PlotTable cycle_stack_table(const Report& rep) {
  std::string unit;
  double scale = thousands_scale(scheduler_cycles(rep.totals), unit);
  const std::string weighted = rep.plan_method.empty() ? "" : " (plan weights applied)";
  PlotTable t{"Scheduler cycles of the application by kernel" + weighted, "scheduler cycles" + unit, cycle_series(),
              {{}}};
  t.error_title = error_title(rep);
  for (const Bar& b : bars(rep))
    t.groups[0].rows.push_back(with_error({b.label, cycle_split(b.m, b.weight / scale)}, b.m, b.plan_bound));
  return t;
}

PlotTable unit_busy_table(const Report& rep) {
  const ShareGroup& g = unit_busy_group();
  PlotTable t{g.title, "% of busy cycles", {}, {{}}};
  for (const Column& c : *g.columns) t.series.push_back(c.title);
  for (const Bar& b : bars(rep)) {
    PlotRow row{b.label, {}};
    for (const Column& c : *g.columns) row.values.push_back(100 * share(*c.get(b.m), g.whole(b.m)));
    t.groups[0].rows.push_back(std::move(row));
  }
  return t;
}

PlotTable compare_cpi_table(const std::vector<Report>& runs) {
  PlotTable t{"CPI stack per warp scheduler, per run", "cycles per warp instruction", cycle_series(), {}};
  if (runs.empty()) return t;
  PlotGroup app{"application", {}};
  for (size_t i = 0; i < runs.size(); ++i)
    app.rows.push_back(with_error({run_tag(runs[i]), cpi_split(runs[i].totals)}, runs[i]));
  t.groups.push_back(std::move(app));
  for (const Bar& b : bars(runs[0])) {
    if (!b.kernel) continue;  // "other" and the application
    PlotGroup g{b.label, {}};
    for (size_t i = 0; i < runs.size(); ++i) {
      const KernelReport* k = find_kernel(runs[i], *b.kernel);
      g.rows.push_back(k ? with_error({run_tag(runs[i]), cpi_split(k->m)}, k->m)
                         : PlotRow{run_tag(runs[i]), std::vector<double>(t.series.size(), 0)});
    }
    t.groups.push_back(std::move(g));
  }
  return t;
}

PlotTable compare_cycle_table(const std::vector<Report>& runs) {
  std::string unit;
  double largest = 0;
  for (const Report& r : runs) largest = std::max(largest, scheduler_cycles(r.totals));
  double scale = thousands_scale(largest, unit);
  PlotTable t{"Scheduler cycles of the application, per run", "scheduler cycles" + unit, cycle_series(), {{}}};
  for (size_t i = 0; i < runs.size(); ++i)
    t.groups[0].rows.push_back(with_error({run_label(runs, i), cycle_split(runs[i].totals, 1 / scale)}, runs[i]));
  return t;
}

SpeedupChart speedup_chart(const std::vector<Report>& runs) {
  std::string unit;
  double largest = 0;
  for (const Report& r : runs) largest = std::max(largest, r.totals.cycles);
  double scale = thousands_scale(largest, unit);
  const std::string first = runs.empty() ? "" : run_label(runs, 0);
  SpeedupChart c{"Application cycles per run and speedup over " + first, "cycles" + unit, {}};
  for (size_t i = 0; i < runs.size(); ++i) {
    const Metrics& m = runs[i].totals;
    char speedup[32] = "-";
    if (m.cycles > 0) std::snprintf(speedup, sizeof speedup, "%.2fx", runs[0].totals.cycles / m.cycles);
    PlotRow bar = with_error({"", {m.cycles / scale}}, runs[i]);
    c.runs.push_back({run_label(runs, i), m.cycles / scale, speedup, bar.error});
  }
  return c;
}

PlotTable compare_speedup_table(const std::vector<Report>& runs) {
  const std::string first = runs.empty() ? "" : run_label(runs, 0);
  PlotTable t{"Speed-up over " + first + " per kernel", "speed-up (x)", {"speed-up"}, {}};
  if (runs.size() < 2) return t;
  const Comparison c = compare(runs);
  auto group = [&](const std::string& title, const CompareScope& s) {
    PlotGroup g{title, {}};
    for (size_t i = 1; i < runs.size(); ++i) {
      const std::optional<Speedup> sp = s.speedup(i);
      PlotRow row{run_tag(runs[i]), {sp ? sp->value : 0}};
      if (sp && sp->range_frac) row.error = sp->value * *sp->range_frac;
      g.rows.push_back(std::move(row));
    }
    t.groups.push_back(std::move(g));
  };
  group("application", c.scopes.back());
  for (const Bar& b : bars(runs[0])) {
    if (!b.kernel) continue;  // "other" and the application
    for (const CompareScope& s : c.scopes)
      if (s.id == b.kernel->id) group(b.label, s);
  }
  return t;
}

PlotTable stall_comparison_table(const std::vector<StallComparison>& stalls) {
  PlotTable t{"Stall reasons, simulated against the profiler's", "% of the stall cycles both name", {}, {}, 2};
  for (StallType type : kComparedStallTypes) t.series.push_back(stall_type_name(type));
  const bool several_runs = std::any_of(stalls.begin(), stalls.end(),
                                        [&](const StallComparison& c) { return c.run != stalls.front().run; });
  for (size_t k = 0; k < stalls.size() && k < kPlotKernels; ++k) {
    const StallComparison& c = stalls[k];
    auto percent = [](const auto& shares) {
      std::vector<double> v;
      for (double s : shares) v.push_back(100 * s);
      return v;
    };
    // A suite's kernels are told apart by their run.
    const std::string title = several_runs ? plot_label(c.run + ": " + kernel_label(c.kernel_id, c.name))
                                           : kernel_label(c.kernel_id, c.name);
    t.groups.push_back(PlotGroup{title,
                                 {PlotRow{"simulated", percent(c.simulated)}, PlotRow{"reference", percent(c.reference)}}});
  }
  return t;
}

namespace {

std::string axis_unit(RefMetric m) {
  if (ref_metric_is_fraction(m)) return "fraction";
  switch (m) {
    case RefMetric::Cycles:
    case RefMetric::SmActiveCycles: return "cycles";
    case RefMetric::Instructions: return "warp instructions";
    case RefMetric::Ipc:
    case RefMetric::SmIpc: return "warp instructions per cycle";
    case RefMetric::GmemRequests: return "requests";
    case RefMetric::SmemConflicts: return "conflicts";
    default: return "sectors";
  }
}

std::string statistic(const char* name, const std::optional<double>& v, const char* unit) {
  char buf[64];
  if (v) std::snprintf(buf, sizeof buf, "%s %.3g%s", name, *v, unit);
  else std::snprintf(buf, sizeof buf, "%s -", name);
  return buf;
}

// How far a point is from y = x: relative to the reference for counts
// (a reference of 0 counts as far), absolute for fractions.
double distance_from_diagonal(const ScatterPoint& p, bool fraction) {
  const double off = std::fabs(p.simulated - p.reference);
  if (fraction) return off;
  return p.reference != 0 ? off / std::fabs(p.reference) : (off > 0 ? HUGE_VAL : 0);
}

// "id name", after the run's label where a suite pools several runs.
std::string point_label(const std::vector<MetricPair>& pairs, const MetricPair& p) {
  const bool pooled = std::any_of(pairs.begin(), pairs.end(), [&](const MetricPair& q) { return q.run != p.run; });
  return (pooled ? plot_label(p.run, 16) + ": " : "") + kernel_label(p.kernel_id, p.name);
}

// Keep the labels of the kScatterLabels points farthest from y = x (ties:
// the first); clear the others.
void keep_outlier_labels(std::vector<ScatterPoint>& points, bool fraction) {
  if (points.size() <= kScatterLabels) return;
  std::vector<size_t> order(points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return distance_from_diagonal(points[a], fraction) > distance_from_diagonal(points[b], fraction);
  });
  for (size_t i = kScatterLabels; i < order.size(); ++i) points[order[i]].label.clear();
}

}  // namespace

std::vector<ScatterSeries> validation_scatter(const Validation& v) {
  std::vector<ScatterSeries> out;
  for (const MetricValidation& mv : v.metrics) {
    if (ref_metric_stall_type(mv.metric)) continue;  // shares of one whole: the stall table says them
    const bool fraction = ref_metric_is_fraction(mv.metric);
    ScatterSeries s{ref_metric_name(mv.metric), {}};
    for (const MetricPair& p : mv.pairs) s.points.push_back({p.reference, p.simulated, point_label(mv.pairs, p)});
    keep_outlier_labels(s.points, fraction);
    s.unit = axis_unit(mv.metric);
    s.log = !fraction;
    s.stats = statistic(error_kind(mv.metric), mv.error, error_unit(mv.metric)) + ", " + statistic("r", mv.corr, "") +
              ", n " + std::to_string(mv.pairs.size());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sasskit::stallreport
