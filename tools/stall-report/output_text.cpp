#include <algorithm>
#include <cmath>
#include <vector>

#include "columns.hpp"
#include "libcommon/diag.hpp"
#include "metrics.hpp"
#include "output.hpp"
#include "text_table.hpp"

namespace sasskit::stallreport {

namespace {

std::string hex_pc(uint64_t pc) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(pc));
  return buf;
}

// What scaled the counts: "CTA-sample scale factors and plan weights (stem)".
std::string projection_note(const Report& rep) {
  bool sampled =
      std::any_of(rep.kernels.begin(), rep.kernels.end(), [](const KernelReport& k) { return k.sample_scale != 1; });
  std::string note = sampled ? "counts scaled by CTA-sample factors" : "";
  if (!rep.plan_method.empty())
    note += (sampled ? " and " : "") + std::string("kernels weighted by the plan (") + rep.plan_method + ")";
  return note;
}

std::string total_label(const Report& rep) { return rep.projected ? "(projected)" : "(total)"; }

// Rows of (label, metrics): the kernels, then the application.
std::vector<std::pair<std::string, const Metrics*>> rows(const Report& rep) {
  std::vector<std::pair<std::string, const Metrics*>> r;
  for (const KernelReport& k : rep.kernels) r.emplace_back(std::to_string(k.id), &k.m);
  r.emplace_back("all", &rep.totals);
  return r;
}

void summary_table(std::ostream& out, const Report& rep) {
  std::vector<std::string> head = {"kernel", "name", "weight"};
  for (const Column& c : summary_columns()) head.push_back(c.title);
  TextTable t(head);
  auto add = [&](std::string id, std::string name, std::optional<double> weight, const Metrics& m) {
    std::vector<std::string> row = {std::move(id), std::move(name), format_text(weight, Kind::Ratio)};
    for (const Column& c : summary_columns()) row.push_back(format_text(c.get(m), c.kind));
    t.add(std::move(row));
  };
  for (const KernelReport& k : rep.kernels) add(std::to_string(k.id), k.name, k.weight, k.m);
  add("all", total_label(rep), std::nullopt, rep.totals);
  t.print(out, {1});
}

// Each column's share of the group's whole; columns that are zero for
// every kernel are left out when `drop_zero`.
void share_table(std::ostream& out, const Report& rep, const ShareGroup& g, bool drop_zero) {
  std::vector<const Column*> shown;
  for (const Column& c : *g.columns) {
    bool any = std::any_of(rep.kernels.begin(), rep.kernels.end(), [&](const KernelReport& k) { return *c.get(k.m) > 0; });
    if (!drop_zero || any) shown.push_back(&c);
  }
  out << '\n' << g.title << " (share of " << g.whole_name << ")\n";
  std::vector<std::string> head = {"kernel", "total"};
  for (const Column* c : shown) head.push_back(c->title);
  TextTable t(head);
  for (const auto& [label, m] : rows(rep)) {
    double whole = g.whole(*m);
    std::vector<std::string> row = {label, format_text(whole, Kind::Count)};
    for (const Column* c : shown) row.push_back(percent(share(*c->get(*m), whole)));
    t.add(std::move(row));
  }
  t.print(out);
}

void top_pc_table(std::ostream& out, const Report& rep) {
  out << "\nTop stalled PCs (simulated stall cycles and their share of the kernel's)\n";
  TextTable t({"kernel", "pc", "stall cycles", "share", "main type", "SASS"});
  for (const KernelReport& k : rep.kernels)
    for (const StalledPc& p : k.top_pcs)
      t.add({std::to_string(k.id), hex_pc(p.pc), std::to_string(p.stall_cycles), percent(p.share),
             stall_type_name(p.main_type), p.sass.empty() ? "-" : p.sass});
  t.print(out, {4, 5});
}

// The CTA sample's error estimate, and how it was made (cta-sample(1),
// SAMPLING ERROR).
void sampling_note(std::ostream& out, double error, SamplingMethod method) {
  out << "CTA sampling: the projected scheduler cycles (and CPI) are off by an estimated \u00b1" << percent(std::abs(error))
      << " (" << sampling_method_name(method) << ": ";
  if (method == SamplingMethod::Check)
    out << "from the cycles per instruction the kept SMs measured, the longest and the shortest predicted";
  else
    out << "cta-sample's widest limit, before simulation";
  out << "; " << signed_percent(error) << " at the far end of the range).\n";
}

// Each sampled kernel's own estimate and method where there are several (the
// application's combines them), and what the estimates do not cover: the
// cycles column, which is the kept SMs' own, not scaled.
void sampling_per_kernel(std::ostream& out, const Report& rep) {
  std::vector<const KernelReport*> sampled;
  for (const KernelReport& k : rep.kernels)
    if (k.m.sampling_error) sampled.push_back(&k);
  if (sampled.size() > 1) {
    out << "Per kernel:";
    for (size_t i = 0; i < sampled.size(); ++i)
      out << (i ? ", " : " ") << sampled[i]->id << " \u00b1" << percent(std::abs(*sampled[i]->m.sampling_error)) << " ("
          << sampling_method_name(sampled[i]->m.sampling_method) << ")";
    out << ".\n";
  }
  if (!sampled.empty())
    out << "The cycles column is the kept SMs' own, not scaled, and has no estimate of its own.\n";
}

}  // namespace

void write_text(std::ostream& out, const Report& rep) {
  out << "stall-report: " << rep.kernels.size() << (rep.kernels.size() == 1 ? " kernel" : " kernels") << " from "
      << printable(rep.source) << '\n';
  if (rep.projected) out << "Totals are projected: " << projection_note(rep) << ".\n";
  if (rep.totals.sampling_error) sampling_note(out, *rep.totals.sampling_error, rep.totals.sampling_method);
  sampling_per_kernel(out, rep);
  if (rep.totals.projection_error)
    out << "PKP: the projected cycles are off by an estimated \u00b1" << percent(*rep.totals.projection_error)
        << " (an estimate, not a bound).\n";
  out << '\n';
  summary_table(out, rep);
  share_table(out, rep, stall_type_group(), false);
  share_table(out, rep, stall_event_group(), true);
  share_table(out, rep, unit_busy_group(), true);
  share_table(out, rep, unit_insts_group(), true);
  top_pc_table(out, rep);
}

}  // namespace sasskit::stallreport
