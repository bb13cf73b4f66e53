// ncu --csv: the "details" page (one row per kernel and metric: "ID",
// "Kernel Name", "Metric Name", "Metric Value") or the "raw" page (one row
// per kernel, one column per metric, a units row under the header). Numbers
// may carry thousands separators. Kernel ids are ncu's 0-based "ID" + 1, the
// Accel-Sim kernel-N numbering when every kernel was profiled.
#include <array>
#include <map>

#include "libcommon/diag.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

// PKA's twelve microarchitecture-agnostic features: pka-micro21 Table 2
// (metric spellings as ncu prints them).
constexpr std::array<const char*, 12> kPkaMetrics = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "smsp__inst_executed_op_local_ld.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "launch__grid_size",
};
constexpr const char* kCycles[] = {"gpc__cycles_elapsed.max", "gpc__cycles_elapsed.avg",
                                   "gpc__cycles_elapsed.sum"};

struct NcuKernel {
  uint64_t id = 0;
  std::string name;
  std::map<std::string, double> metrics;
};

bool is_metric(const std::string& column) { return column.find("__") != std::string::npos; }

std::vector<NcuKernel> read_details(CsvInput& csv, const std::vector<std::string>& h) {
  const int id = CsvInput::find(h, "ID"), name = CsvInput::find(h, "Kernel Name"),
            metric = CsvInput::find(h, "Metric Name"), value = CsvInput::find(h, "Metric Value");
  const int last = std::max({id, name, metric, value});
  std::vector<NcuKernel> kernels;
  std::map<uint64_t, size_t> index;
  while (csv.next()) {
    const auto& f = csv.fields();
    if (static_cast<int>(f.size()) <= last)
      fail_input(csv.where(), "expected " + std::to_string(h.size()) + " fields, found " +
                                  std::to_string(f.size()));
    uint64_t kid = static_cast<uint64_t>(csv.number(f[id], "ID"));
    auto [it, added] = index.emplace(kid, kernels.size());
    if (added) kernels.push_back(NcuKernel{kid + 1, f[name], {}});
    kernels[it->second].metrics[f[metric]] = csv.number(f[value], f[metric], true);
  }
  return kernels;
}

std::vector<NcuKernel> read_raw(CsvInput& csv, const std::vector<std::string>& h) {
  const int id = CsvInput::find(h, "ID"), name = CsvInput::find(h, "Kernel Name");
  std::vector<NcuKernel> kernels;
  while (csv.next()) {
    const auto& f = csv.fields();
    if (f.size() != h.size())
      fail_input(csv.where(), "expected " + std::to_string(h.size()) + " fields, found " +
                                  std::to_string(f.size()));
    if (f[id].empty()) continue;  // the units row
    NcuKernel k{static_cast<uint64_t>(csv.number(f[id], "ID")) + 1, f[name], {}};
    for (size_t c = 0; c < h.size(); ++c)
      if (is_metric(h[c]) && !f[c].empty()) k.metrics[h[c]] = csv.number(f[c], h[c], true);
    kernels.push_back(std::move(k));
  }
  return kernels;
}

const double* metric(const NcuKernel& k, const std::string& m) {
  auto it = k.metrics.find(m);
  return it == k.metrics.end() ? nullptr : &it->second;
}

bool all_have(const std::vector<NcuKernel>& kernels, const std::string& m) {
  for (const auto& k : kernels)
    if (!metric(k, m)) return false;
  return !kernels.empty();
}

void to_profile(const std::vector<NcuKernel>& kernels, Profile& p) {
  std::string cycles;
  for (const char* c : kCycles)
    if (cycles.empty() && all_have(kernels, c)) cycles = c;
  if (!kernels.empty() && cycles.empty())
    fail_input(p.source, "ncu profile lacks gpc__cycles_elapsed.max for some kernel");
  p.unit = "cycles";
  for (const char* f : kPkaMetrics)
    if (all_have(kernels, f)) p.feature_names.push_back(f);
  const bool insts = all_have(kernels, "smsp__inst_executed.sum");
  const bool ctas = all_have(kernels, "launch__grid_size");
  const bool block = ctas && all_have(kernels, "launch__block_size");
  for (const auto& k : kernels) {
    p.add(k.id, k.name, *metric(k, cycles));
    for (const auto& f : p.feature_names) p.features.push_back(*metric(k, f));
    if (insts) p.insts.push_back(*metric(k, "smsp__inst_executed.sum"));
    if (ctas) p.ctas.push_back(static_cast<uint64_t>(*metric(k, "launch__grid_size")));
    if (block)
      p.warps.push_back(p.ctas.back() *
                        ((static_cast<uint64_t>(*metric(k, "launch__block_size")) + 31) / 32));
  }
}

}  // namespace

bool is_ncu_header(const std::vector<std::string>& h) {
  if (CsvInput::find(h, "ID") < 0 || CsvInput::find(h, "Kernel Name") < 0) return false;
  if (CsvInput::find(h, "Metric Name") >= 0 && CsvInput::find(h, "Metric Value") >= 0) return true;
  for (const auto& c : h)
    if (is_metric(c)) return true;
  return false;
}

void read_ncu(CsvInput& csv, const std::vector<std::string>& header, Profile& p) {
  bool details = CsvInput::find(header, "Metric Name") >= 0;
  to_profile(details ? read_details(csv, header) : read_raw(csv, header), p);
}

}  // namespace sasskit::kselect
