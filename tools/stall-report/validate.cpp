#include "validate.hpp"

#include <cmath>
#include <map>
#include <algorithm>

#include "columns.hpp"
#include "metrics.hpp"
#include "formats/csv.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/kernel_name.hpp"
#include "stall_comparison.hpp"
#include "text_table.hpp"
#include "validation_stats.hpp"

namespace sasskit::stallreport {

namespace {

// The simulated value of a reference metric: its summary column, else the
// counter it is compared with.
std::optional<double> simulated(const Metrics& m, RefMetric metric) {
  if (auto type = ref_metric_stall_type(metric)) return simulated_stall_share(m, *type);
  switch (metric) {
    case RefMetric::SmActiveCycles: return m.sm_cycles;
    case RefMetric::L2Sectors: return m.l2_sectors;
    case RefMetric::L2ReadSectors: return m.l2_read_sectors();
    case RefMetric::L2WriteSectors: return m.l2_write_sectors;
    case RefMetric::DramReadSectors: return m.dram_read_sectors;
    case RefMetric::DramWriteSectors: return m.dram_write_sectors;
    case RefMetric::SmemConflicts: return m.smem_conflict_cycles;
    default: break;
  }
  for (const Column& c : summary_columns())
    if (c.reference == metric) return c.get(m);
  return std::nullopt;
}

// Counts add up over kernels; rates, ratios and shares do not.
bool has_application_sum(RefMetric m) {
  return !ref_metric_is_fraction(m) && m != RefMetric::Ipc && m != RefMetric::SmIpc;
}

// Kernel names compared as base names, so that a trace's mangled name meets
// the demangled or short one a profiler prints.
bool same_kernel(const std::string& trace_name, const ReferenceKernel& r) {
  return r.name.empty() || base_kernel_name(trace_name) == base_kernel_name(r.name);
}

// A reference kernel and the simulated launches it stands for: one, or for
// a summary row every launch of its name.
struct Match {
  const ReferenceKernel* ref;
  std::vector<const KernelReport*> launches;
};

// A simulated kernel's reference: the one with its launch number when the
// names agree, else the n-th launch of its name (n counted over the trace).
// The launches left of a name that has a summary row go to that row, when
// they are as many as its invocations (plan weights counted); otherwise its
// averages are of other launches than the run's, and it is not compared.
std::vector<Match> match(const Report& rep, const Reference& ref, const std::string& ref_name) {
  std::map<uint64_t, const ReferenceKernel*> by_id;
  std::map<std::string, std::vector<const ReferenceKernel*>> by_name;
  std::map<std::string, Match> summary;
  for (const ReferenceKernel& r : ref.kernels) {
    if (r.id) by_id.emplace(*r.id, &r);
    if (r.name.empty()) continue;
    if (r.launches > 1) summary.try_emplace(base_kernel_name(r.name), Match{&r, {}});
    else by_name[base_kernel_name(r.name)].push_back(&r);
  }
  std::map<std::string, size_t> seen;  // launches of a name so far
  std::vector<Match> matches;
  for (const KernelReport& k : rep.kernels) {
    const std::string base = base_kernel_name(k.name);
    const size_t nth = seen[base]++;
    if (auto it = by_id.find(k.id); it != by_id.end() && same_kernel(k.name, *it->second)) {
      matches.push_back({it->second, {&k}});
    } else if (auto n = by_name.find(base); n != by_name.end() && nth < n->second.size()) {
      matches.push_back({n->second[nth], {&k}});
    } else if (auto s = summary.find(base); s != summary.end()) {
      s->second.launches.push_back(&k);
    }
  }
  for (auto& [base, m] : summary) {
    if (m.launches.empty()) continue;
    double launches = 0;
    for (const KernelReport* k : m.launches) launches += k->weight;
    if (launches == double(m.ref->launches)) {
      matches.push_back(std::move(m));
      continue;
    }
    char count[32];
    std::snprintf(count, sizeof count, "%g", launches);
    warn(ref_name, "the summary row of '" + printable(m.ref->name) + "' averages " +
                       std::to_string(m.ref->launches) + " launches and the run has " + count +
                       " of that name: not compared");
  }
  return matches;
}

// The simulated value of a match: its launch's, or the mean over the
// launches a summary row averages, as the profiler averages them (rates
// included), each counted by its plan weight.
std::optional<double> simulated(const Match& match, RefMetric metric) {
  if (match.launches.size() == 1) return simulated(match.launches.front()->m, metric);
  double sum = 0, weight = 0;
  for (const KernelReport* k : match.launches) {
    auto v = simulated(k->m, metric);
    if (!v) return std::nullopt;
    sum += k->weight * *v, weight += k->weight;
  }
  return sum / weight;
}

// The simulated stall cycles a match is set against: a summary row's
// launches summed.
std::optional<StallComparison> compare_stalls(const Match& match) {
  if (match.launches.size() == 1) return compare_stalls(*match.launches.front(), *match.ref);
  std::vector<KernelReport> launches;
  for (const KernelReport* k : match.launches) launches.push_back(*k);
  KernelReport all = launches.front();
  all.m = application_totals(launches);
  return compare_stalls(all, *match.ref);
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

std::string metric_list(const std::vector<RefMetric>& metrics) {
  std::string s;
  for (RefMetric m : metrics) s += (s.empty() ? "" : ", ") + std::string(ref_metric_name(m));
  return s;
}

std::string value_text(double v, RefMetric m) {
  if (ref_metric_is_fraction(m)) return percent(v);
  if (m == RefMetric::Ipc || m == RefMetric::SmIpc) return fixed(v, 3);
  return fixed(v, 0);
}

// The metric's error (MAPE or MAE) and correlation over its pairs.
void score(MetricValidation& mv) {
  std::vector<double> sim, meas;
  for (const MetricPair& p : mv.pairs) sim.push_back(p.simulated), meas.push_back(p.reference);
  if (ref_metric_is_fraction(mv.metric)) {
    if (auto e = mae(sim, meas)) mv.error = 100 * *e;
  } else {
    mv.error = mape(sim, meas);
  }
  mv.corr = pearson(sim, meas);
}

void summary_table(std::ostream& out, const std::vector<MetricValidation>& metrics) {
  TextTable summary({"metric", "kernels", "error", "corr"});
  for (const MetricValidation& mv : metrics)
    summary.add({ref_metric_name(mv.metric), std::to_string(mv.pairs.size()),
                 std::string(error_kind(mv.metric)) + " " + (mv.error ? fixed(*mv.error, 2) + error_unit(mv.metric) : "-"),
                 mv.corr ? fixed(*mv.corr, 3) : "-"});
  summary.print(out);
}

}  // namespace

Validation pool_validations(const std::vector<Validation>& runs) {
  Validation suite;
  suite.reference = std::to_string(runs.size()) + " references";
  suite.format = "suite";
  std::map<RefMetric, MetricValidation> pooled;
  for (const Validation& v : runs) {
    suite.matched += v.matched;
    for (const MetricValidation& mv : v.metrics) {
      auto& to = pooled.try_emplace(mv.metric, MetricValidation{mv.metric, {}, {}, {}, {}}).first->second;
      to.pairs.insert(to.pairs.end(), mv.pairs.begin(), mv.pairs.end());
    }
  }
  for (auto& [metric, mv] : pooled) {
    score(mv);
    suite.metrics.push_back(std::move(mv));
  }
  return suite;
}

namespace {

// "dir/app.exe" -> "app": how a run is likely labelled after its program.
std::string program_stem(const std::string& application) {
  std::string stem = application.substr(application.find_last_of("/\\") + 1);
  return stem.substr(0, stem.find('.'));
}

// A run labelled APP, or APP/... as the workflow kit labels APP/GPU/VARIANT.
std::string application_for(const Report& run, const std::vector<std::string>& apps, const std::string& file) {
  const std::string first = run.run.substr(0, run.run.find('/'));
  for (const std::string& app : apps)
    if (run.run == app || run.run == program_stem(app) || first == program_stem(app)) return app;
  std::string list;
  for (const std::string& app : apps) list += (list.empty() ? "" : ", ") + printable(app);
  fail_usage(file + " holds " + std::to_string(apps.size()) + " applications (" + list + "): label each run (-l) by the one it ran; '" +
             printable(run.run) + "' is none of them");
}

}  // namespace

std::vector<Validation> validate_runs(const std::vector<Report>& runs, const std::vector<std::string>& files,
                                      const profile::ReadOptions& options) {
  std::vector<Validation> out;
  if (files.size() == 1) {
    const Reference ref = load_reference(files.front(), options);
    const std::vector<std::string> apps = reference_applications(ref);
    if (apps.size() > 1) {
      for (const Report& run : runs) {
        const std::string app = application_for(run, apps, files.front());
        out.push_back(validate(run, application_reference(ref, app), files.front() + " (" + app + ")"));
      }
      return out;
    }
    if (runs.size() == 1) return {validate(runs.front(), ref, files.front())};
  }
  if (files.size() != runs.size())
    fail_usage("give --reference once per run (" + std::to_string(runs.size()) + " runs, " +
               std::to_string(files.size()) + " references), or one that holds each run's application");
  for (size_t i = 0; i < files.size(); ++i) out.push_back(validate(runs[i], load_reference(files[i], options), files[i]));
  return out;
}

const char* error_kind(RefMetric m) { return ref_metric_is_fraction(m) ? "MAE" : "MAPE"; }
const char* error_key(RefMetric m) { return ref_metric_is_fraction(m) ? "error_pp" : "error_pct"; }
const char* error_unit(RefMetric m) { return ref_metric_is_fraction(m) ? " pp" : "%"; }

Validation validate(const Report& rep, const Reference& ref, const std::string& ref_name) {
  const std::vector<Match> pairs = match(rep, ref, ref_name);
  if (pairs.empty())
    throw Error(ExitCode::Failure, ref_name,
                "no reference kernel matches a simulated kernel (reference: " + reference_list(ref) +
                    "; simulated: " + kernel_list(rep) + ")");
  Validation v{ref_name, ref.format, rep.run, rep.gpu, pairs.size(), {}, {}, {}, {}};
  for (size_t mi = 0; mi < kRefMetrics; ++mi) {
    RefMetric metric = RefMetric(mi);
    MetricValidation mv{metric, {}, {}, {}, {}};
    bool in_reference = false;
    for (const Match& p : pairs) {
      auto s = simulated(p, metric);
      const auto& m = p.ref->metrics[mi];
      in_reference |= m.has_value();
      if (!s || !m) continue;
      const KernelReport& k = *p.launches.front();
      mv.pairs.push_back({k.id, k.name, *s, *m, rep.run});
    }
    if (mv.pairs.empty()) {
      (in_reference ? v.unsimulated : v.missing).push_back(metric);
      continue;
    }
    if (has_application_sum(metric) && mv.pairs.size() > 1) {
      mv.application = MetricPair{0, "(application)", 0, 0, rep.run};
      for (const MetricPair& p : mv.pairs) mv.application->simulated += p.simulated, mv.application->reference += p.reference;
    }
    score(mv);
    v.metrics.push_back(std::move(mv));
  }
  for (const Match& p : pairs)
    if (auto c = compare_stalls(p)) {
      c->run = rep.run;
      v.stalls.push_back(std::move(*c));
    }
  return v;
}

void write_validation_text(std::ostream& out, const Validation& v) {
  out << "\nValidation against " << printable(v.reference) << " (" << v.format << "), " << v.matched
      << (v.matched == 1 ? " kernel" : " kernels") << " matched\n";
  summary_table(out, v.metrics);
  if (!v.missing.empty()) out << "not in the reference: " << metric_list(v.missing) << '\n';
  if (!v.unsimulated.empty()) out << "not in the run: " << metric_list(v.unsimulated) << '\n';
  for (const MetricValidation& mv : v.metrics) {
    if (ref_metric_stall_type(mv.metric)) continue;  // in the stall table below
    out << '\n' << ref_metric_name(mv.metric) << '\n';
    TextTable t({"kernel", "name", "simulated", "reference", ref_metric_is_fraction(mv.metric) ? "abs error" : "rel error"});
    const char* unit = error_unit(mv.metric);
    auto add = [&](const std::string& kernel, const MetricPair& p) {
      double e = pair_error(p, mv.metric);
      t.add({kernel, p.name, value_text(p.simulated, mv.metric), value_text(p.reference, mv.metric),
             std::isnan(e) ? "-" : fixed(e, 2) + unit});
    };
    for (const MetricPair& p : mv.pairs) add(std::to_string(p.kernel_id), p);
    if (mv.application) add("all", *mv.application);
    t.print(out, {1});
  }
  if (!v.stalls.empty()) write_stall_comparison_text(out, v.stalls);
}

void write_suite_text(std::ostream& out, const std::vector<Validation>& runs, const Validation& suite) {
  out << "\nSuite: " << runs.size() << " runs against their references, " << suite.matched
      << (suite.matched == 1 ? " kernel" : " kernels") << " matched\n";
  summary_table(out, suite.metrics);
  out << "\nError per run (MAPE for counts, MAE in pp for fractions)\n";
  std::vector<const MetricValidation*> shown;  // the stall shares are in each run's stall table
  for (const MetricValidation& mv : suite.metrics)
    if (!ref_metric_stall_type(mv.metric)) shown.push_back(&mv);
  std::vector<std::string> header{"run"};
  for (const MetricValidation* mv : shown) header.push_back(ref_metric_name(mv->metric));
  TextTable t(header);
  for (const Validation& v : runs) {
    std::vector<std::string> row{v.run};
    for (const MetricValidation* pooled : shown) {
      auto it = std::find_if(v.metrics.begin(), v.metrics.end(),
                             [&](const MetricValidation& mv) { return mv.metric == pooled->metric; });
      row.push_back(it != v.metrics.end() && it->error ? fixed(*it->error, 2) : "-");
    }
    t.add(row);
  }
  t.print(out);
}

void write_validation_gaps_json(JsonWriter& w, const Validation& v) {
  for (auto [key, metrics] : {std::pair{"missing", &v.missing}, std::pair{"unsimulated", &v.unsimulated}}) {
    w.key(key).begin_array();
    for (RefMetric m : *metrics) w.value(ref_metric_name(m));
    w.end_array();
  }
}

void write_validation_csv(std::ostream& out, const Validation& v, bool header) {
  if (header) out << "run,gpu,metric,kernel_id,kernel_name,simulated,reference,rel_error_pct,abs_error_pp\n";
  const std::string run = csv_field(v.run) + ',' + csv_field(v.gpu) + ',';
  for (const MetricValidation& mv : v.metrics) {
    auto row = [&](const MetricPair& p, const std::string& kernel_id) {
      double e = pair_error(p, mv.metric);
      std::string error = std::isnan(e) ? "" : format_csv(e, Kind::Ratio);
      bool fraction = ref_metric_is_fraction(mv.metric);
      out << run << ref_metric_name(mv.metric) << ',' << kernel_id << ',' << csv_field(p.name) << ','
          << format_csv(p.simulated, Kind::Ratio) << ',' << format_csv(p.reference, Kind::Ratio) << ','
          << (fraction ? "" : error) << ',' << (fraction ? error : "") << '\n';
    };
    for (const MetricPair& p : mv.pairs) row(p, std::to_string(p.kernel_id));
    if (mv.application) row(*mv.application, "");
  }
  for (const StallComparison& c : v.stalls)
    out << run << "stall_distance," << c.kernel_id << ',' << csv_field(c.name) << ",,,,"
        << format_csv(100 * c.distance, Kind::Ratio) << '\n';
}

}  // namespace sasskit::stallreport
