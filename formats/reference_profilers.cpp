// The profiler and simulator layouts of formats/reference_stats.hpp.
#include <map>

#include "formats/csv.hpp"
#include "formats/reference_stats.hpp"
#include "libcommon/diag.hpp"

namespace sasskit {

namespace {

// A source metric and what it becomes: value * scale, summed when several
// sources add up to one metric (load + store requests).
struct MetricSource {
  std::string_view source;
  RefMetric metric;
  double scale = 1;
  bool sum = false;
};

// nvprof --metrics names (nvprof's "Metrics Reference" in the CUDA Profiler
// User's Guide); percentages there are 0..100, achieved_occupancy is 0..1.
constexpr MetricSource kNvprof[] = {
    {"inst_executed", RefMetric::Instructions},
    {"ipc", RefMetric::SmIpc},
    {"achieved_occupancy", RefMetric::Occupancy},
    {"global_hit_rate", RefMetric::L1HitRate, 0.01},
    {"l2_tex_hit_rate", RefMetric::L2HitRate, 0.01},
    {"global_load_requests", RefMetric::GmemRequests, 1, true},
    {"global_store_requests", RefMetric::GmemRequests, 1, true},
};

// Nsight Compute: section names of the default sets and the raw metric
// names behind them (Nsight Compute "Kernel Profiling Guide", metrics).
constexpr MetricSource kNcu[] = {
    {"Elapsed Cycles", RefMetric::Cycles},
    {"gpc__cycles_elapsed.max", RefMetric::Cycles},
    {"Executed Instructions", RefMetric::Instructions},
    {"smsp__inst_executed.sum", RefMetric::Instructions},
    {"Executed Ipc Active", RefMetric::SmIpc},
    {"sm__inst_executed.avg.per_cycle_active", RefMetric::SmIpc},
    {"Achieved Occupancy", RefMetric::Occupancy, 0.01},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", RefMetric::Occupancy, 0.01},
    {"L1/TEX Hit Rate", RefMetric::L1HitRate, 0.01},
    {"l1tex__t_sector_hit_rate.pct", RefMetric::L1HitRate, 0.01},
    {"L2 Hit Rate", RefMetric::L2HitRate, 0.01},
    {"lts__t_sector_hit_rate.pct", RefMetric::L2HitRate, 0.01},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", RefMetric::GmemRequests, 1, true},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", RefMetric::GmemRequests, 1, true},
};

template <size_t N>
const MetricSource* find_source(const MetricSource (&table)[N], std::string_view name) {
  for (const MetricSource& s : table)
    if (s.source == name) return &s;
  return nullptr;
}

void apply(ReferenceKernel& k, const MetricSource& s, double v) {
  auto& slot = k.metrics[size_t(s.metric)];
  slot = (s.sum && slot ? *slot : 0) + v * s.scale;
}

int column(const std::vector<std::string>& head, std::string_view name) {
  for (size_t c = 0; c < head.size(); ++c)
    if (head[c] == name) return int(c);
  return -1;
}

size_t header_line(const std::vector<std::string>& lines) {
  size_t i = 0;
  while (i < lines.size() && (lines[i].empty() || lines[i].rfind("==", 0) == 0)) ++i;
  return i;
}

// Splits a data line into `fields`; false for blank lines and nvprof's "==" notes.
bool data_row(const std::string& line, size_t lineno, const std::string& name, size_t columns,
              std::vector<std::string>& fields) {
  if (line.empty() || line.rfind("==", 0) == 0) return false;
  if (!split_csv_line(line, fields)) fail_input(name, lineno, "unclosed quote");
  if (fields.size() != columns)
    fail_input(name, lineno, std::to_string(fields.size()) + " fields, expected " + std::to_string(columns));
  return true;
}

// A row with one column per metric (nvprof --csv --print-gpu-trace, ncu --page raw).
template <size_t N>
Reference read_wide(const std::vector<std::string>& lines, const std::string& name, const char* format,
                    const char* name_column, const MetricSource (&table)[N]) {
  size_t h = header_line(lines);
  std::vector<std::string> head, fields;
  split_csv_line(strip_bom(lines[h]), head);
  int name_col = column(head, name_column);
  Reference ref{format, {}};
  for (size_t i = h + 1; i < lines.size(); ++i) {
    if (!data_row(lines[i], i + 1, name, head.size(), fields)) continue;
    if (fields[name_col].empty()) continue;  // the units row
    ReferenceKernel k;
    k.name = fields[name_col];
    for (size_t c = 0; c < head.size(); ++c)
      if (const MetricSource* s = find_source(table, head[c]))
        if (auto v = parse_reference_number(fields[c])) apply(k, *s, *v);
    ref.kernels.push_back(std::move(k));
  }
  return ref;
}

// One row per (launch, metric) with a "Metric Name" column: rows are grouped
// into kernels by `key_column` (ncu's launch ID, nvprof's kernel name).
template <size_t N>
Reference read_long(const std::vector<std::string>& lines, const std::string& name, const char* format,
                    const char* key_column, const char* name_column, const char* value_column,
                    const MetricSource (&table)[N]) {
  size_t h = header_line(lines);
  std::vector<std::string> head, fields;
  split_csv_line(strip_bom(lines[h]), head);
  int key_col = column(head, key_column), name_col = column(head, name_column);
  int metric_col = column(head, "Metric Name"), value_col = column(head, value_column);
  Reference ref{format, {}};
  std::map<std::string, size_t> by_key;
  for (size_t i = h + 1; i < lines.size(); ++i) {
    if (!data_row(lines[i], i + 1, name, head.size(), fields)) continue;
    auto [it, fresh] = by_key.emplace(fields[key_col], ref.kernels.size());
    if (fresh) ref.kernels.push_back({std::nullopt, fields[name_col], {}});
    if (const MetricSource* s = find_source(table, fields[metric_col]))
      if (auto v = parse_reference_number(fields[value_col])) apply(ref.kernels[it->second], *s, *v);
  }
  return ref;
}

// Accel-Sim statistic names (gpgpu-sim's gpu-sim.cc / shader.cc printouts).
void accelsim_metrics(ReferenceKernel& k, const std::map<std::string, double>& stat) {
  auto get = [&](const char* n) -> std::optional<double> {
    auto it = stat.find(n);
    return it == stat.end() ? std::nullopt : std::optional<double>(it->second);
  };
  auto cycles = get("gpu_sim_cycle") ? get("gpu_sim_cycle") : get("gpu_tot_sim_cycle");
  auto& m = k.metrics;
  m[size_t(RefMetric::Cycles)] = cycles;
  m[size_t(RefMetric::Instructions)] = get("warp_instruction_count");
  if (cycles && *cycles > 0 && m[size_t(RefMetric::Instructions)])
    m[size_t(RefMetric::Ipc)] = *m[size_t(RefMetric::Instructions)] / *cycles;
  if (auto occ = get("gpu_occupancy")) m[size_t(RefMetric::Occupancy)] = *occ / 100;
  auto rd = get("num_global_mem_read"), wr = get("num_global_mem_write");
  if (rd || wr) m[size_t(RefMetric::GmemRequests)] = rd.value_or(0) + wr.value_or(0);
  auto l1_acc = get("l1_data_cache_total_accesses"), l1_miss = get("l1_data_cache_total_misses");
  if (l1_acc && l1_miss && *l1_acc > 0) m[size_t(RefMetric::L1HitRate)] = 1 - *l1_miss / *l1_acc;
  double l2_hit = 0, l2_total = 0;
  for (const char* op : {"read", "write"}) {
    l2_hit += get(("l2_cache_global_" + std::string(op) + "_hit").c_str()).value_or(0);
    l2_total += get(("l2_cache_global_" + std::string(op) + "_total").c_str()).value_or(0);
  }
  if (l2_total > 0) m[size_t(RefMetric::L2HitRate)] = l2_hit / l2_total;
  if (auto uid = get("kernel_launch_uid")) k.id = uint64_t(*uid);
}

}  // namespace

Reference read_nvprof(const std::vector<std::string>& lines, const std::string& name) {
  std::vector<std::string> head;
  split_csv_line(strip_bom(lines[header_line(lines)]), head);
  // nvprof --csv --metrics without --print-gpu-trace: one row per (kernel, metric).
  if (column(head, "Metric Name") >= 0 && column(head, "Avg") >= 0)
    return read_long(lines, name, "nvprof", "Kernel", "Kernel", "Avg", kNvprof);
  return read_wide(lines, name, "nvprof", "Kernel", kNvprof);
}

Reference read_ncu(const std::vector<std::string>& lines, const std::string& name) {
  std::vector<std::string> head;
  split_csv_line(strip_bom(lines[header_line(lines)]), head);
  if (column(head, "Metric Name") >= 0 && column(head, "Metric Value") >= 0 && column(head, "ID") >= 0)
    return read_long(lines, name, "ncu", "ID", "Kernel Name", "Metric Value", kNcu);
  return read_wide(lines, name, "ncu", "Kernel Name", kNcu);
}

Reference read_accelsim_csv(const std::vector<std::string>& lines, const std::string& name) {
  std::map<std::string, std::map<std::string, double>> stats;  // by kernel_id column
  std::vector<std::string> order;
  std::vector<std::string> fields;
  for (size_t i = header_line(lines) + 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    if (!split_csv_line(lines[i], fields) || fields.size() != 4)
      fail_input(name, i + 1, "expected kernel,kernel_id,stat,value");
    auto v = parse_reference_number(fields[3]);
    if (!v) continue;  // non-numeric statistics are not compared
    if (!stats.count(fields[1])) order.push_back(fields[1]);
    stats[fields[1]][fields[2]] = *v;
  }
  Reference ref{"accelsim-csv", {}};
  for (const std::string& kid : order) {
    ReferenceKernel k;
    accelsim_metrics(k, stats[kid]);
    ref.kernels.push_back(std::move(k));
  }
  return ref;
}

Reference read_accelsim_log(const std::vector<std::string>& lines, const std::string& /*name*/) {
  Reference ref{"accelsim-log", {}};
  std::map<std::string, double> stat;
  std::string kernel_name;
  auto flush = [&] {
    if (stat.empty()) return;
    ReferenceKernel k;
    k.name = kernel_name;
    accelsim_metrics(k, stat);
    ref.kernels.push_back(std::move(k));
    stat.clear();
  };
  for (const std::string& line : lines) {
    size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 3);
    if (key == "kernel_name") {
      flush();
      kernel_name = value;
    } else if (key.find(' ') == std::string::npos) {
      if (auto v = parse_reference_number(value)) stat[key] = *v;
    }
  }
  flush();
  return ref;
}

}  // namespace sasskit
