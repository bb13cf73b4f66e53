#include "compare.hpp"

#include <algorithm>
#include <cmath>

#include "libcommon/diag.hpp"
#include "metrics.hpp"
#include "text_table.hpp"

namespace sasskit::stallreport {

std::optional<double> CompareRow::delta(size_t i) const {
  const auto &base = values.front(), &v = values[i];
  return base && v ? std::optional<double>(*v - *base) : std::nullopt;
}

std::optional<double> CompareRow::change(size_t i) const {
  const auto &base = values.front(), &v = values[i];
  if (kind == Kind::Fraction || !base || !v || *base == 0) return std::nullopt;
  return 100 * (*v - *base) / *base;
}

std::optional<Speedup> CompareScope::speedup(size_t i) const {
  const ScopeCycles &base = cycles.front(), &run = cycles[i];
  if (!base.cycles || !run.cycles || *base.cycles <= 0 || *run.cycles <= 0) return std::nullopt;
  Speedup s{*base.cycles / *run.cycles, std::nullopt};
  if (base.error_frac || run.error_frac) s.range_frac = base.error_frac.value_or(0) + run.error_frac.value_or(0);
  return s;
}

namespace {

ScopeCycles cycles_of(const Metrics* m, std::optional<double> plan_bound = std::nullopt) {
  if (!m) return {};
  return {m->cycles, relative_error(*m, plan_bound)};
}

// The rows of one scope; a run without the kernel (null) has no values.
std::vector<CompareRow> rows_for(const std::vector<const Metrics*>& ms) {
  std::vector<CompareRow> rows;
  auto add = [&](std::string metric, Kind kind, auto get) {
    CompareRow r{std::move(metric), kind, {}};
    for (const Metrics* m : ms) r.values.push_back(m ? std::optional<double>(get(*m)) : std::nullopt);
    rows.push_back(std::move(r));
  };
  for (const Column& c : summary_columns()) add(c.key, c.kind, [&c](const Metrics& m) { return c.get(m); });
  // A sampled run's estimate beside its cycles, so a difference smaller than it reads as such.
  if (std::any_of(ms.begin(), ms.end(), [](const Metrics* m) { return m && m->sampling_error; })) {
    CompareRow r{"sampling_error_frac", Kind::Ratio, {}};
    for (const Metrics* m : ms) r.values.push_back(m ? m->sampling_error : std::nullopt);
    rows.push_back(std::move(r));
  }
  add("stall_cycles", Kind::Count, [](const Metrics& m) { return m.stall_cycles(); });
  for (const Column& c : stall_type_columns())
    add("stall_" + c.title + "_frac", Kind::Fraction,
        [&c](const Metrics& m) { return share(*c.get(m), m.stall_cycles()); });
  return rows;
}

std::string delta_text(const CompareRow& r, size_t i) {
  auto d = r.delta(i);
  if (!d) return "-";
  char buf[64];
  if (r.kind == Kind::Fraction) std::snprintf(buf, sizeof buf, "%+.1f pp", *d * 100);
  else if (r.kind == Kind::Ratio) std::snprintf(buf, sizeof buf, "%+.3f", *d);
  else std::snprintf(buf, sizeof buf, "%+.0f", std::round(*d));
  std::string text = buf;
  if (auto c = r.change(i)) {
    std::snprintf(buf, sizeof buf, " (%+.1f%%)", *c);
    text += buf;
  }
  return text;
}

std::string run_title(const Report& r) {
  std::string detail = r.gpu;
  if (!r.config.empty()) detail += (detail.empty() ? "" : "; ") + r.config;
  return r.run + (detail.empty() ? "" : " (" + detail + ")");
}

}  // namespace

const KernelReport* find_kernel(const Report& r, const KernelReport& k) {
  for (const KernelReport& o : r.kernels)
    if (o.id == k.id && o.name == k.name) return &o;
  for (const KernelReport& o : r.kernels)
    if (o.name == k.name) return &o;
  return nullptr;
}

namespace {
// Whether `r` has `k` itself, not only another launch of its name.
bool simulated_in(const Report& r, const KernelReport& k) {
  const KernelReport* match = find_kernel(r, k);
  return match && match->id == k.id;
}
}  // namespace

Comparison compare(const std::vector<Report>& runs) {
  Comparison c;
  if (runs.empty()) return c;
  const Report& base = runs.front();
  for (const Report& r : runs) c.runs.push_back(run_title(r)), c.plan_methods.push_back(r.plan_method);
  for (const KernelReport& k : base.kernels) {
    std::vector<const Metrics*> ms;
    std::vector<RunKernel> in_runs;
    std::vector<ScopeCycles> cycles;
    for (const Report& r : runs) {
      const KernelReport* match = find_kernel(r, k);
      ms.push_back(match ? &match->m : nullptr);
      cycles.push_back(cycles_of(ms.back()));
      if (!match) {
        in_runs.push_back({RunKernel::Missing});
        c.unmatched.push_back("not in " + r.run + ": kernel " + std::to_string(k.id) + " " + k.name);
      } else {
        in_runs.push_back({match->id == k.id ? RunKernel::Simulated : RunKernel::StandIn, match->id});
      }
    }
    c.scopes.push_back({k.id, k.name, rows_for(ms), std::move(in_runs), std::move(cycles)});
  }
  bool projected = false;
  std::vector<const Metrics*> totals;
  std::vector<ScopeCycles> total_cycles;
  for (const Report& r : runs) {
    projected = projected || r.projected;
    totals.push_back(&r.totals);
    total_cycles.push_back(cycles_of(&r.totals, r.plan_error_bound));
    for (const KernelReport& k : r.kernels)
      if (!simulated_in(base, k))
        c.unmatched.push_back("only in " + r.run + ": kernel " + std::to_string(k.id) + " " + k.name);
  }
  c.scopes.push_back({std::nullopt, application_name(projected), rows_for(totals),
                      std::vector<RunKernel>(runs.size()), std::move(total_cycles)});
  return c;
}

namespace {

constexpr const char* kNoValue = "n/s";    // a run without the kernel
constexpr const char* kStandInMark = "*";  // a run's value of another launch of the kernel

bool any_in(const Comparison& c, RunKernel::Kind kind) {
  return std::any_of(c.scopes.begin(), c.scopes.end(), [kind](const CompareScope& s) {
    return std::any_of(s.in_runs.begin(), s.in_runs.end(), [kind](const RunKernel& r) { return r.kind == kind; });
  });
}

// What the marks mean, and for a plan's run why it lacks kernels.
void write_marks_note(std::ostream& out, const Comparison& c) {
  const bool stand_ins = any_in(c, RunKernel::StandIn), missing = any_in(c, RunKernel::Missing);
  if (!stand_ins && !missing) return;
  if (stand_ins)
    out << kStandInMark << ": the run did not simulate the kernel; the value is that of another launch of"
        << " its name, which it did (named in the heading)\n";
  if (missing) out << kNoValue << ": the run did not simulate the kernel nor a launch of its name: no value\n";
  for (size_t i = 0; i < c.runs.size(); ++i)
    if (!c.plan_methods[i].empty())
      out << "  " << i + 1 << " is a " << printable(c.plan_methods[i]) << " plan's run: it simulated the"
          << " kernels the plan chose, and its application row weighs them for the others\n";
}

// "kernel 3 name", or the application's name.
std::string scope_name(const CompareScope& s) {
  return s.id ? "kernel " + std::to_string(*s.id) + " " + s.name : s.name;
}

// "kernel 3 name", marked "(2: kernel 1 stands in; not simulated in 3)"
// where runs did not simulate it.
std::string scope_title(const CompareScope& s) {
  std::string title = scope_name(s), marks;
  for (size_t i = 0; i < s.in_runs.size(); ++i) {
    const RunKernel& r = s.in_runs[i];
    if (r.kind == RunKernel::Simulated) continue;
    marks += marks.empty() ? " (" : "; ";
    marks += r.kind == RunKernel::StandIn
                 ? std::to_string(i + 1) + ": kernel " + std::to_string(r.id) + " stands in, " + kStandInMark
                 : "not simulated in " + std::to_string(i + 1);
  }
  return marks.empty() ? title : title + marks + ")";
}

// A cell of run `run`: as it is, marked as a stand-in's, or no value.
std::string marked(const CompareScope& s, size_t run, const std::string& text) {
  switch (s.in_runs[run].kind) {
    case RunKernel::Simulated: return text;
    case RunKernel::StandIn: return text + kStandInMark;
    case RunKernel::Missing: return kNoValue;
  }
  return text;
}

std::string speedup_text(const std::optional<Speedup>& s) {
  if (!s) return "-";
  char buf[64];
  if (s->range_frac) std::snprintf(buf, sizeof buf, "%.3fx +-%.1f%%", s->value, 100 * *s->range_frac);
  else std::snprintf(buf, sizeof buf, "%.3fx", s->value);
  return buf;
}

// Per scope, each design point's speed-up over the baseline: the figure a
// design study reports.
void write_speedup_table(std::ostream& out, const Comparison& c) {
  out << "\nspeed-up over run 1 (run 1's cycles / the run's";
  const bool ranges = std::any_of(c.scopes.begin(), c.scopes.end(), [&](const CompareScope& s) {
    for (size_t i = 1; i < c.runs.size(); ++i)
      if (auto sp = s.speedup(i); sp && sp->range_frac) return true;
    return false;
  });
  out << (ranges ? "; +- the two runs' error estimates added)\n" : ")\n");
  std::vector<std::string> head{"scope"};
  for (size_t i = 1; i < c.runs.size(); ++i) head.push_back(std::to_string(i + 1));
  TextTable t(head);
  for (const CompareScope& s : c.scopes) {
    std::vector<std::string> row{scope_name(s)};
    for (size_t i = 1; i < c.runs.size(); ++i) row.push_back(marked(s, i, speedup_text(s.speedup(i))));
    t.add(std::move(row));
  }
  t.print(out);
}

}  // namespace

void write_compare_text(std::ostream& out, const Comparison& c) {
  out << "stall-report: " << c.runs.size() << " runs, the first is the baseline\n";
  for (size_t i = 0; i < c.runs.size(); ++i) out << "  " << i + 1 << ": " << printable(c.runs[i]) << '\n';
  for (const std::string& note : c.unmatched) out << printable(note) << '\n';
  write_marks_note(out, c);
  write_speedup_table(out, c);
  for (const CompareScope& s : c.scopes) {
    out << '\n' << printable(scope_title(s)) << '\n';
    std::vector<std::string> head{"metric"};
    for (size_t i = 0; i < c.runs.size(); ++i) head.push_back(std::to_string(i + 1));
    for (size_t i = 1; i < c.runs.size(); ++i) head.push_back(std::to_string(i + 1) + " - 1");
    TextTable t(head);
    for (const CompareRow& r : s.rows) {
      std::vector<std::string> row{r.metric};
      for (size_t i = 0; i < r.values.size(); ++i) row.push_back(marked(s, i, format_text(r.values[i], r.kind)));
      for (size_t i = 1; i < r.values.size(); ++i) row.push_back(marked(s, i, delta_text(r, i)));
      t.add(std::move(row));
    }
    t.print(out);
  }
}

}  // namespace sasskit::stallreport
