#include "columns.hpp"
#include "formats/csv.hpp"
#include "metrics.hpp"
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

// The kernels' GPU model when they all share one, else empty.
std::string application_gpu(const Report& rep) {
  for (const KernelReport& k : rep.kernels)
    if (k.gpu != rep.kernels.front().gpu) return "";
  return rep.kernels.empty() ? "" : rep.kernels.front().gpu;
}

}  // namespace

void write_csv(std::ostream& out, const Report& rep) {
  const auto cols = all_columns();
  out << "kernel_id,kernel_name,gpu,weight,sample_scale";
  for (const Column* c : cols) out << ',' << c->key;
  out << '\n';
  auto row = [&](const std::string& id, const std::string& name, const std::string& gpu, std::optional<double> weight,
                 std::optional<double> scale, const Metrics& m) {
    out << id << ',' << csv_field(name) << ',' << csv_field(gpu) << ',' << format_csv(weight, Kind::Ratio) << ','
        << format_csv(scale, Kind::Ratio);
    for (const Column* c : cols) out << ',' << format_csv(c->get(m), c->kind);
    out << '\n';
  };
  for (const KernelReport& k : rep.kernels)
    row(std::to_string(k.id), k.name, k.gpu, k.weight, k.sample_scale, k.m);
  row("", application_name(rep.projected), application_gpu(rep), std::nullopt, std::nullopt, rep.totals);
}

}  // namespace sasskit::stallreport
