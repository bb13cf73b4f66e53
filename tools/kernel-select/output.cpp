#include "output.hpp"

#include <cstdio>
#include <sstream>

#include "formats/stream_json.hpp"
#include "libcommon/json.hpp"

namespace sasskit::kselect {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void write_plan_json(std::ostream& out, const Plan& plan, const std::vector<stream::Stage>& provenance) {
  JsonWriter j(out);
  j.begin_object().field("method", plan.method).key("params").begin_object();
  for (const auto& [k, v] : plan.params) j.field(k, v);
  j.end_object().field("unit", plan.unit).field("invocations", plan.invocations).field("total", plan.total);
  if (plan.error_bound) j.field("error_bound_frac", *plan.error_bound);
  j.key("clusters").begin_array();
  for (const auto& c : plan.clusters)
    j.begin_object().field("label", c.label).field("size", c.size).field("samples", uint64_t(c.samples))
        .field("mean", c.mean).field("sd", c.sd).end_object();
  j.end_array().key("entries").begin_array();
  for (const auto& e : plan.entries)
    j.begin_object().field("kernel_id", e.id).field("kernel_name", e.name).field("cluster", uint64_t(e.cluster))
        .field("picks", uint64_t(e.picks)).field("weight", e.weight).end_object();
  j.end_array().key("provenance");
  write_provenance(j, provenance);
  j.end_object();
  out << "\n";
}

void write_evaluation_json(std::ostream& out, const Evaluation& e) {
  JsonWriter j(out);
  j.begin_object().field("method", e.method).field("repeat", uint64_t(e.repeat)).field("seed", e.seed)
      .field("clusters", uint64_t(e.clusters)).field("samples", e.samples).field("speedup", e.speedup)
      .field("mean_error_frac", e.mean_error).field("p95_error_frac", e.p95_error);
  if (e.error_bound) j.field("error_bound_frac", *e.error_bound);
  j.end_object();
  out << "\n";
}

void write_evaluation_csv(std::ostream& out, const Evaluation& e) {
  out << "method,repeat,seed,clusters,samples,speedup,mean_error_frac,p95_error_frac,error_bound_frac\n"
      << e.method << "," << e.repeat << "," << e.seed << "," << e.clusters << "," << e.samples << ","
      << e.speedup << "," << e.mean_error << "," << e.p95_error << ",";
  if (e.error_bound) out << *e.error_bound;
  out << "\n";
}

void write_evaluation_text(std::ostream& out, const Evaluation& e) {
  out << "method          " << e.method << "\n"
      << "draws           " << e.repeat << " (seeds " << e.seed << ".." << e.seed + e.repeat - 1 << ")\n"
      << "clusters        " << e.clusters << "\n"
      << "samples         " << fixed(e.samples, 1) << " distinct invocations per draw\n"
      << "speedup         " << fixed(e.speedup, 1) << " (harmonic mean)\n"
      << "mean error      " << fixed(100 * e.mean_error, 3) << "%\n"
      << "p95 error       " << fixed(100 * e.p95_error, 3) << "%\n";
  if (e.error_bound) out << "error bound     " << fixed(100 * *e.error_bound, 3) << "%\n";
}

std::string summary(const Profile& p, const Selection& s) {
  const DrawScore d = score(p, s);
  uint64_t picks = 0;
  for (const auto& e : s.plan.entries) picks += e.picks;
  std::ostringstream line;
  line << s.plan.method << ": " << p.size() << " invocations of " << p.names.size() << " kernels, ";
  if (!p.duration_from.empty()) line << "durations in " << p.unit << " from '" << p.duration_from << "', ";
  line        << s.plan.clusters.size() << " clusters, " << picks << " samples (" << d.samples
       << " distinct), predicted speedup " << fixed(d.speedup, 1) << ", ";
  if (s.plan.error_bound)
    line << "theoretical error bound " << fixed(100 * *s.plan.error_bound, 2) << "% at "
         << fixed(100 * s.plan.params.at("confidence"), 1) << "% confidence";
  else
    line << "no theoretical error bound";
  return line.str();
}

}  // namespace sasskit::kselect
