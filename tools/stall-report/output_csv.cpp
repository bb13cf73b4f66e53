#include "columns.hpp"
#include "formats/csv.hpp"
#include "output.hpp"

namespace sasskit::stallreport {

namespace {

std::vector<const Column*> all_columns() {
  std::vector<const Column*> cols;
  for (const auto* group : {&summary_columns(), &stall_type_columns(), &stall_event_columns(), &unit_busy_columns(),
                            &unit_insts_columns()})
    for (const Column& c : *group) cols.push_back(&c);
  return cols;
}

}  // namespace

void write_csv(std::ostream& out, const Report& rep) {
  const auto cols = all_columns();
  out << "id,name,weight,sample_scale";
  for (const Column* c : cols) out << ',' << c->key;
  out << '\n';
  auto row = [&](const std::string& id, const std::string& name, std::optional<double> weight,
                 std::optional<double> scale, const Metrics& m) {
    out << id << ',' << csv_field(name) << ',' << format_csv(weight, Kind::Ratio) << ','
        << format_csv(scale, Kind::Ratio);
    for (const Column* c : cols) out << ',' << format_csv(c->get(m), c->kind);
    out << '\n';
  };
  for (const KernelReport& k : rep.kernels) row(std::to_string(k.id), k.name, k.weight, k.sample_scale, k.m);
  row("all", rep.projected ? "(projected)" : "(total)", std::nullopt, std::nullopt, rep.totals);
}

}  // namespace sasskit::stallreport
