#include "validate.hpp"

#include <cmath>
#include <map>

#include "columns.hpp"
#include "formats/csv.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/kernel_name.hpp"
#include "text_table.hpp"
#include "validation_stats.hpp"

namespace sasskit::stallreport {

namespace {

// The simulated value of a reference metric: its summary column.
std::optional<double> simulated(const Metrics& m, RefMetric metric) {
  for (const Column& c : summary_columns())
    if (c.reference == metric) return c.get(m);
  return std::nullopt;
}

// Kernel names compared as base names, so that a trace's mangled name meets
// the demangled or short one a profiler prints.
bool same_kernel(const std::string& trace_name, const ReferenceKernel& r) {
  return r.name.empty() || base_kernel_name(trace_name) == base_kernel_name(r.name);
}

// A simulated kernel's reference: the one with its launch number when the
// names agree, else the n-th launch of its name (n counted over the trace),
// else a summary row of its name.
std::vector<std::pair<const KernelReport*, const ReferenceKernel*>> match(const Report& rep, const Reference& ref) {
  std::map<uint64_t, const ReferenceKernel*> by_id;
  std::map<std::string, std::vector<const ReferenceKernel*>> by_name, summary;
  for (const ReferenceKernel& r : ref.kernels) {
    if (r.id) by_id.emplace(*r.id, &r);
    if (r.name.empty()) continue;
    (r.launches > 1 ? summary : by_name)[base_kernel_name(r.name)].push_back(&r);
  }
  std::map<std::string, size_t> seen;  // launches of a name so far
  std::vector<std::pair<const KernelReport*, const ReferenceKernel*>> pairs;
  for (const KernelReport& k : rep.kernels) {
    const std::string base = base_kernel_name(k.name);
    const size_t nth = seen[base]++;
    if (auto it = by_id.find(k.id); it != by_id.end() && same_kernel(k.name, *it->second)) {
      pairs.emplace_back(&k, it->second);
    } else if (auto n = by_name.find(base); n != by_name.end() && nth < n->second.size()) {
      pairs.emplace_back(&k, n->second[nth]);
    } else if (auto s = summary.find(base); s != summary.end()) {
      pairs.emplace_back(&k, s->second.front());
    }
  }
  return pairs;
}

std::string kernel_list(const Report& rep) {
  std::string s;
  for (size_t i = 0; i < rep.kernels.size() && i < 5; ++i)
    s += (i ? ", " : "") + std::to_string(rep.kernels[i].id) + " " + rep.kernels[i].name;
  return rep.kernels.size() > 5 ? s + ", ..." : s;
}

std::string reference_list(const Reference& ref) {
  std::string s;
  for (size_t i = 0; i < ref.kernels.size() && i < 5; ++i) {
    const ReferenceKernel& r = ref.kernels[i];
    s += i ? ", " : "";
    s += r.id ? "id " + std::to_string(*r.id) : r.name.empty() ? "(unnamed)" : r.name;
  }
  return ref.kernels.size() > 5 ? s + ", ..." : s;
}

double pair_error(const MetricPair& p, RefMetric m) {
  if (ref_metric_is_fraction(m)) return 100 * std::fabs(p.simulated - p.reference);
  return p.reference != 0 ? 100 * std::fabs(p.simulated - p.reference) / std::fabs(p.reference) : NAN;
}

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string value_text(double v, RefMetric m) {
  if (ref_metric_is_fraction(m)) return percent(v);
  if (m == RefMetric::Ipc || m == RefMetric::SmIpc) return fixed(v, 3);
  return fixed(v, 0);
}

}  // namespace

const char* error_kind(RefMetric m) { return ref_metric_is_fraction(m) ? "MAE" : "MAPE"; }
const char* error_key(RefMetric m) { return ref_metric_is_fraction(m) ? "error_pp" : "error_pct"; }
const char* error_unit(RefMetric m) { return ref_metric_is_fraction(m) ? " pp" : "%"; }

Validation validate(const Report& rep, const Reference& ref, const std::string& ref_name) {
  auto pairs = match(rep, ref);
  if (pairs.empty())
    throw Error(ExitCode::Failure, ref_name,
                "no reference kernel matches a simulated kernel (reference: " + reference_list(ref) +
                    "; simulated: " + kernel_list(rep) + ")");
  Validation v{ref_name, ref.format, pairs.size(), {}};
  for (size_t mi = 0; mi < kRefMetrics; ++mi) {
    RefMetric metric = RefMetric(mi);
    MetricValidation mv{metric, {}, {}, {}};
    std::vector<double> sim, meas;
    for (auto [k, r] : pairs) {
      auto s = simulated(k->m, metric);
      const auto& m = r->metrics[mi];
      if (!s || !m) continue;
      mv.pairs.push_back({k->id, k->name, *s, *m});
      sim.push_back(*s);
      meas.push_back(*m);
    }
    if (mv.pairs.empty()) continue;
    if (ref_metric_is_fraction(metric)) {
      if (auto e = mae(sim, meas)) mv.error = 100 * *e;
    } else {
      mv.error = mape(sim, meas);
    }
    mv.corr = pearson(sim, meas);
    v.metrics.push_back(std::move(mv));
  }
  return v;
}

void write_validation_text(std::ostream& out, const Validation& v) {
  out << "\nValidation against " << printable(v.reference) << " (" << v.format << "), " << v.matched
      << (v.matched == 1 ? " kernel" : " kernels") << " matched\n";
  TextTable summary({"metric", "kernels", "error", "corr"});
  for (const MetricValidation& mv : v.metrics)
    summary.add({ref_metric_name(mv.metric), std::to_string(mv.pairs.size()),
                 std::string(error_kind(mv.metric)) + " " + (mv.error ? fixed(*mv.error, 2) + error_unit(mv.metric) : "-"),
                 mv.corr ? fixed(*mv.corr, 3) : "-"});
  summary.print(out);
  for (const MetricValidation& mv : v.metrics) {
    out << '\n' << ref_metric_name(mv.metric) << '\n';
    TextTable t({"kernel", "name", "simulated", "reference", ref_metric_is_fraction(mv.metric) ? "abs error" : "rel error"});
    const char* unit = error_unit(mv.metric);
    for (const MetricPair& p : mv.pairs) {
      double e = pair_error(p, mv.metric);
      t.add({std::to_string(p.kernel_id), p.name, value_text(p.simulated, mv.metric),
             value_text(p.reference, mv.metric), std::isnan(e) ? "-" : fixed(e, 2) + unit});
    }
    t.print(out, {1});
  }
}

void write_validation_csv(std::ostream& out, const Validation& v) {
  out << "metric,kernel_id,kernel_name,simulated,reference,rel_error_pct,abs_error_pp\n";
  for (const MetricValidation& mv : v.metrics)
    for (const MetricPair& p : mv.pairs) {
      double e = pair_error(p, mv.metric);
      std::string error = std::isnan(e) ? "" : format_csv(e, Kind::Ratio);
      bool fraction = ref_metric_is_fraction(mv.metric);
      out << ref_metric_name(mv.metric) << ',' << p.kernel_id << ',' << csv_field(p.name) << ','
          << format_csv(p.simulated, Kind::Ratio) << ',' << format_csv(p.reference, Kind::Ratio) << ','
          << (fraction ? "" : error) << ',' << (fraction ? error : "") << '\n';
    }
}

}  // namespace sasskit::stallreport
