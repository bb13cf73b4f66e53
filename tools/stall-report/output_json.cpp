#include <cmath>

#include "columns.hpp"
#include "compare.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/json.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "stall_comparison.hpp"

namespace sasskit::stallreport {

namespace {

void number(JsonWriter& w, std::optional<double> v, Kind kind) {
  if (!v) w.null();
  else if (kind == Kind::Count && *v == std::floor(*v) && *v >= 0 && *v < 1e18) w.value(uint64_t(*v));
  else w.value(*v);
}

// The metrics under the CSV's column names (stall-report(1), COLUMNS).
void metrics(JsonWriter& w, const Metrics& m) {
  w.key("sampling_error_frac");
  number(w, m.sampling_error, Kind::Ratio);
  if (m.sampling_error) w.field("sampling_method", sampling_method_name(m.sampling_method));
  for (const Column* c : metric_columns()) {
    w.key(c->key);
    number(w, c->get(m), c->kind);
  }
}

void top_pcs(JsonWriter& w, const std::vector<StalledPc>& pcs) {
  w.key("top_stalled_pcs").begin_array();
  for (const StalledPc& p : pcs) {
    w.begin_object().field("pc", p.pc).field("stall_cycles", p.stall_cycles).field("stall_frac", p.share);
    w.field("type", stall_type_name(p.main_type)).field("sass", p.sass).end_object();
  }
  w.end_array();
}

void validation_json(JsonWriter& w, const Validation& v) {
  w.key("validation").begin_object().field("reference", v.reference).field("format", v.format);
  w.field("matched", uint64_t(v.matched)).key("metrics").begin_array();
  for (const MetricValidation& mv : v.metrics) {
    w.begin_object().field("metric", ref_metric_name(mv.metric)).field("error_kind", error_kind(mv.metric));
    w.key(error_key(mv.metric));
    number(w, mv.error, Kind::Ratio);
    w.key("corr");
    number(w, mv.corr, Kind::Ratio);
    w.key("kernels").begin_array();
    for (const MetricPair& p : mv.pairs)
      w.begin_object().field("kernel_id", p.kernel_id).field("kernel_name", p.name).field("simulated", p.simulated).field(
          "reference", p.reference).end_object();
    w.end_array();
    if (mv.application)
      w.key("application").begin_object().field("simulated", mv.application->simulated).field(
          "reference", mv.application->reference).end_object();
    w.end_object();
  }
  w.end_array();
  write_validation_gaps_json(w, v);
  write_stall_comparison_json(w, v.stalls);
  w.end_object();
}

void run_json(JsonWriter& w, const Report& rep, const stream::Stage& self, const Validation* validation) {
  w.begin_object().field("run", rep.run).field("gpu", rep.gpu).field("config", rep.config);
  w.field("source", rep.source).field("projected", rep.projected);
  w.key("plan_method");
  if (rep.plan_method.empty()) w.null();
  else w.value(rep.plan_method);
  w.key("error_bound_frac");
  number(w, rep.plan_error_bound, Kind::Ratio);
  w.key("kernels").begin_array();
  for (const KernelReport& k : rep.kernels) {
    w.begin_object().field("kernel_id", k.id).field("kernel_name", k.name).field("gpu", k.gpu);
    w.field("shards", uint64_t(k.shards)).field("weight", k.weight).field("sample_scale", k.sample_scale);
    metrics(w, k.m);
    top_pcs(w, k.top_pcs);
    w.end_object();
  }
  w.end_array();
  w.key("application").begin_object().field("kernel_name", application_name(rep.projected));
  metrics(w, rep.totals);
  w.end_object();
  if (validation) validation_json(w, *validation);
  w.key("provenance");
  write_provenance(w, report_provenance(rep.provenance, self));
  w.end_object();
}

// Several runs: each design point's speed-up over the first run, per
// kernel of the first and for the application (compare.hpp).
void speedups_json(JsonWriter& w, const std::vector<Report>& runs) {
  const Comparison c = compare(runs);
  w.key("speedups").begin_object().field("baseline", runs.front().run).key("scopes").begin_array();
  for (const CompareScope& s : c.scopes) {
    w.begin_object().key("kernel_id");
    if (s.id) w.value(uint64_t(*s.id));
    else w.null();
    w.field("kernel_name", s.name).key("runs").begin_array();
    for (size_t i = 1; i < runs.size(); ++i) {
      const std::optional<Speedup> sp = s.speedup(i);
      w.begin_object().field("run", runs[i].run).key("speedup");
      number(w, sp ? std::optional<double>(sp->value) : std::nullopt, Kind::Ratio);
      w.key("range_frac");
      number(w, sp ? sp->range_frac : std::nullopt, Kind::Ratio);
      w.field("stand_in", s.in_runs[i].kind == RunKernel::StandIn).end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

}  // namespace

void write_provenance_json(std::ostream& out, const std::vector<Report>& runs, const stream::Stage& self) {
  JsonWriter w(out);
  w.begin_object().key("runs").begin_array();
  for (const Report& rep : runs) {
    w.begin_object().field("run", rep.run).key("provenance");
    write_provenance(w, report_provenance(rep.provenance, self));
    w.end_object();
  }
  w.end_array().end_object();
  out << '\n';
}

void write_json(std::ostream& out, const std::vector<Report>& runs, const stream::Stage& self,
                const std::vector<Validation>& validations) {
  JsonWriter w(out);
  w.begin_object().key("runs").begin_array();
  for (size_t i = 0; i < runs.size(); ++i)
    run_json(w, runs[i], self, i < validations.size() ? &validations[i] : nullptr);
  w.end_array();
  if (validations.size() > 1) {
    w.key("suite").begin_object();
    validation_json(w, pool_validations(validations));
    w.end_object();
  }
  if (runs.size() > 1 && validations.empty()) speedups_json(w, runs);
  w.end_object();
  out << '\n';
}

}  // namespace sasskit::stallreport
