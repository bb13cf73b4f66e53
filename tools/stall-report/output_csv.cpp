#include <algorithm>

#include "columns.hpp"
#include "formats/csv.hpp"
#include "metrics.hpp"
#include "output.hpp"

namespace sasskit::stallreport {

namespace {

// The application row's kernel_id: a number, so that a loader reads the
// column as integers (a blank would make pandas read floats), and one no
// kernel has (stall-report(1), COLUMNS).
constexpr const char* kApplicationKernelId = "-1";

// What a row describes besides its metrics.
struct RowKey {
  const char* scope;  // "kernel" or "application"
  std::optional<uint32_t> id;
  std::string name;
  std::optional<uint32_t> shards;
  std::optional<double> weight, sample_scale, error_bound;
};

// The application row's shards: the most of any of its kernels, so that the
// column holds integers on every row (a blank would make pandas read floats).
uint32_t most_shards(const Report& rep) {
  uint32_t most = 1;
  for (const KernelReport& k : rep.kernels) most = std::max(most, k.shards);
  return most;
}

}  // namespace

void write_csv(std::ostream& out, const std::vector<Report>& runs) {
  const auto& cols = metric_columns();
  out << "run,gpu,config,scope,kernel_id,kernel_name,shards,weight,sample_scale,error_bound_frac,sampling_error_frac,sampling_method";
  for (const Column* c : cols) out << ',' << c->key;
  out << '\n';
  for (const Report& rep : runs) {
    auto row = [&](const RowKey& key, const Metrics& m) {
      out << csv_field(rep.run) << ',' << csv_field(rep.gpu) << ',' << csv_field(rep.config) << ',' << key.scope << ','
          << (key.id ? std::to_string(*key.id) : kApplicationKernelId) << ',' << csv_field(key.name) << ','
          << (key.shards ? std::to_string(*key.shards) : "") << ',' << format_csv(key.weight, Kind::Ratio) << ','
          << format_csv(key.sample_scale, Kind::Ratio) << ',' << format_csv(key.error_bound, Kind::Ratio) << ','
          << format_csv(m.sampling_error, Kind::Ratio) << ','
          << (m.sampling_error ? sampling_method_name(m.sampling_method) : "");
      for (const Column* c : cols) out << ',' << format_csv(c->get(m), c->kind);
      out << '\n';
    };
    for (const KernelReport& k : rep.kernels)
      row({"kernel", k.id, k.name, k.shards, k.weight, k.sample_scale, std::nullopt}, k.m);
    row({"application", std::nullopt, application_name(rep.projected), most_shards(rep), std::nullopt, std::nullopt,
         rep.plan_error_bound},
        rep.totals);
  }
}

}  // namespace sasskit::stallreport
