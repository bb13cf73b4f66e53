#include "compare.hpp"

#include <cmath>

#include "formats/csv.hpp"
#include "libcommon/json.hpp"
#include "metrics.hpp"
#include "text_table.hpp"

namespace sasskit::stallreport {

std::optional<double> CompareRow::change() const {
  if (kind == Kind::Fraction || !a || !b || *a == 0) return std::nullopt;
  return 100 * (*b - *a) / *a;
}

namespace {

std::vector<CompareRow> rows_for(const Metrics& a, const Metrics& b) {
  std::vector<CompareRow> rows;
  for (const Column& c : summary_columns()) rows.push_back({c.key, c.kind, c.get(a), c.get(b)});
  rows.push_back({"stall_cycles", Kind::Count, a.stall_cycles(), b.stall_cycles()});
  for (const Column& c : stall_type_columns())
    rows.push_back({"stall_" + c.title + "_frac", Kind::Fraction, share(*c.get(a), a.stall_cycles()),
                    share(*c.get(b), b.stall_cycles())});
  return rows;
}

std::string delta_text(const CompareRow& r) {
  auto d = r.delta();
  if (!d) return "-";
  char buf[64];
  if (r.kind == Kind::Fraction) std::snprintf(buf, sizeof buf, "%+.1f pp", *d * 100);
  else if (r.kind == Kind::Ratio) std::snprintf(buf, sizeof buf, "%+.3f", *d);
  else std::snprintf(buf, sizeof buf, "%+.0f", std::round(*d));
  return buf;
}

std::string change_text(const CompareRow& r) {
  auto c = r.change();
  if (!c) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1f%%", *c);
  return buf;
}

}  // namespace

const KernelReport* find_kernel(const Report& r, const KernelReport& k) {
  for (const KernelReport& o : r.kernels)
    if (o.id == k.id && o.name == k.name) return &o;
  for (const KernelReport& o : r.kernels)
    if (o.name == k.name) return &o;
  return nullptr;
}

Comparison compare(const Report& a, const Report& b) {
  Comparison c{a.source, b.source, {}, {}};
  for (const KernelReport& ka : a.kernels) {
    if (const KernelReport* kb = find_kernel(b, ka))
      c.scopes.push_back({ka.id, ka.name, rows_for(ka.m, kb->m)});
    else
      c.unmatched.push_back("only in A: kernel " + std::to_string(ka.id) + " " + ka.name);
  }
  for (const KernelReport& kb : b.kernels)
    if (!find_kernel(a, kb)) c.unmatched.push_back("only in B: kernel " + std::to_string(kb.id) + " " + kb.name);
  c.scopes.push_back({std::nullopt, application_name(a.projected || b.projected), rows_for(a.totals, b.totals)});
  return c;
}

void write_compare_text(std::ostream& out, const Comparison& c) {
  out << "stall-report: A = " << c.a << ", B = " << c.b << '\n';
  for (const std::string& note : c.unmatched) out << note << '\n';
  for (const CompareScope& s : c.scopes) {
    out << '\n' << (s.id ? "kernel " + std::to_string(*s.id) + " " + s.name : s.name) << '\n';
    TextTable t({"metric", "A", "B", "delta", "change"});
    for (const CompareRow& r : s.rows)
      t.add({r.metric, format_text(r.a, r.kind), format_text(r.b, r.kind), delta_text(r), change_text(r)});
    t.print(out);
  }
}

void write_compare_csv(std::ostream& out, const Comparison& c) {
  out << "kernel_id,kernel_name,metric,a,b,delta,change_pct\n";
  for (const CompareScope& s : c.scopes)
    for (const CompareRow& r : s.rows)
      out << (s.id ? std::to_string(*s.id) : "") << ',' << csv_field(s.name) << ',' << r.metric << ',' << format_csv(r.a, r.kind) << ','
          << format_csv(r.b, r.kind) << ',' << format_csv(r.delta(), Kind::Ratio) << ','
          << format_csv(r.change(), Kind::Ratio) << '\n';
}

void write_compare_json(std::ostream& out, const Comparison& c) {
  JsonWriter w(out);
  auto opt = [&](std::string_view key, std::optional<double> v) {
    w.key(key);
    if (v) w.value(*v);
    else w.null();
  };
  w.begin_object().field("a", c.a).field("b", c.b).key("unmatched").array(c.unmatched);
  w.key("scopes").begin_array();
  for (const CompareScope& s : c.scopes) {
    w.begin_object().key("kernel_id");
    if (s.id) w.value(uint64_t(*s.id));
    else w.null();
    w.field("kernel_name", s.name).key("metrics").begin_object();
    for (const CompareRow& r : s.rows) {
      w.key(r.metric).begin_object();
      opt("a", r.a);
      opt("b", r.b);
      opt("delta", r.delta());
      opt("change_pct", r.change());
      w.end_object();
    }
    w.end_object().end_object();
  }
  w.end_array().end_object();
  out << '\n';
}

}  // namespace sasskit::stallreport
