#include "formats/reference_stats.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit {

namespace {

using profile::Kernel;
using profile::Layout;

constexpr std::array<const char*, kRefMetrics> kMetricNames = {
    "cycles", "instructions", "ipc", "sm_ipc", "gmem_requests", "l1_hit_rate", "l2_hit_rate", "occupancy",
    "sm_active_cycles", "l2_sectors", "l2_read_sectors", "l2_write_sectors", "dram_read_sectors", "dram_write_sectors", "smem_bank_conflicts",
    "stall_MemStruct_share", "stall_MemData_share", "stall_ComStruct_share", "stall_ComData_share",
    "stall_Sync_share", "stall_Ctrl_share"};
constexpr size_t kFirstStallShare = size_t(RefMetric::StallMemStruct);

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
    {"executed_ipc", RefMetric::SmIpc},  // the summary's name for it
    {"achieved_occupancy", RefMetric::Occupancy},
    {"global_hit_rate", RefMetric::L1HitRate, 0.01},
    {"l2_tex_hit_rate", RefMetric::L2HitRate, 0.01},
    // Requests as sasskit counts them, one per warp-level instruction: on
    // Pascal, global_{load,store}_requests count one per 32-byte sector.
    {"inst_executed_global_loads", RefMetric::GmemRequests, 1, true},
    {"inst_executed_global_stores", RefMetric::GmemRequests, 1, true},
    {"inst_executed_global_atomics", RefMetric::GmemRequests, 1, true},
    {"inst_executed_global_reductions", RefMetric::GmemRequests, 1, true},
    {"active_cycles", RefMetric::SmActiveCycles},  // event, summed over SMs
    // A transaction is a 32-byte sector; l2_tex_* are those from the SMs' L1/tex.
    {"l2_tex_read_transactions", RefMetric::L2ReadSectors},
    {"l2_tex_write_transactions", RefMetric::L2WriteSectors},
    {"dram_read_transactions", RefMetric::DramReadSectors},
    {"dram_write_transactions", RefMetric::DramWriteSectors},
    {"shared_ld_bank_conflict", RefMetric::SmemConflicts, 1, true},  // events
    {"shared_st_bank_conflict", RefMetric::SmemConflicts, 1, true},
};

// Nsight Compute: section names of the default sets and the raw metric
// names behind them (Nsight Compute "Kernel Profiling Guide", metrics).
// Cycles come from the profile reader's elapsed-cycles choice.
constexpr MetricSource kNcu[] = {
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
    {"sm__cycles_active.sum", RefMetric::SmActiveCycles},
    {"lts__t_sectors_srcunit_tex_op_read.sum", RefMetric::L2ReadSectors},
    {"lts__t_sectors_srcunit_tex_op_write.sum", RefMetric::L2WriteSectors},
    {"dram__sectors_read.sum", RefMetric::DramReadSectors},
    {"dram__sectors_write.sum", RefMetric::DramWriteSectors},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", RefMetric::SmemConflicts, 1, true},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", RefMetric::SmemConflicts, 1, true},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", RefMetric::SmemConflicts},  // both, where given
    // The names of Nsight Compute before 2020 (CUDA 10), as on Pascal.
    {"smsp__inst_executed_sum", RefMetric::Instructions},
    {"sm__active_cycles_sum", RefMetric::SmActiveCycles},
    {"sm__inst_executed_avg_per_active_cycle", RefMetric::SmIpc},
    {"sm__active_warps_avg_per_active_cycle_pct", RefMetric::Occupancy, 0.01},
    {"tex__hitrate_pct", RefMetric::L1HitRate, 0.01},
    {"lts__request_total_sectors_hitrate_pct", RefMetric::L2HitRate, 0.01},
    // Global memory warp instructions: the tex__texin_requests_global_* of
    // these releases count one request per 32-byte sector on Pascal.
    {"sass__inst_executed_global_loads", RefMetric::GmemRequests, 1, true},
    {"sass__inst_executed_global_stores", RefMetric::GmemRequests, 1, true},
    {"smsp__inst_executed_global_atomics_sum", RefMetric::GmemRequests, 1, true},
    {"smsp__inst_executed_global_reductions_sum", RefMetric::GmemRequests, 1, true},
    {"dram__read_sectors", RefMetric::DramReadSectors},
    {"dram__write_sectors", RefMetric::DramWriteSectors},
    {"sm__shmem_ld_bank_conflict_sum", RefMetric::SmemConflicts, 1, true},
    {"sm__shmem_st_bank_conflict_sum", RefMetric::SmemConflicts, 1, true},
    // Sectors the L1/tex sent to L2: its read misses and its writes.
    {"tex__m_rd_sectors_miss_global_ld_cached", RefMetric::L2ReadSectors, 1, true},
    {"tex__m_rd_sectors_miss_global_ld_uncached", RefMetric::L2ReadSectors, 1, true},
    {"tex__m_rd_sectors_miss_local_ld_cached", RefMetric::L2ReadSectors, 1, true},
    {"tex__m_rd_sectors_miss_local_ld_uncached", RefMetric::L2ReadSectors, 1, true},
    {"tex__m_rd_sectors_global_atom", RefMetric::L2ReadSectors, 1, true},
    {"tex__m_wr_sectors_global_nonatom", RefMetric::L2WriteSectors, 1, true},
    {"tex__m_wr_sectors_global_atom", RefMetric::L2WriteSectors, 1, true},
    {"tex__m_wr_sectors_global_red", RefMetric::L2WriteSectors, 1, true},
    {"tex__m_wr_sectors_local_st", RefMetric::L2WriteSectors, 1, true},
};

// DRAM traffic as bytes, read only where the file lacks the sector count:
// the names since 2020, those of sm_100 and later, and those before 2020.
constexpr MetricSource kNcuBytes[] = {
    {"dram__bytes_read.sum", RefMetric::DramReadSectors},   {"dram__bytes_write.sum", RefMetric::DramWriteSectors},
    {"dram__bytes_op_read.sum", RefMetric::DramReadSectors}, {"dram__bytes_op_write.sum", RefMetric::DramWriteSectors},
    {"dram__read_bytes", RefMetric::DramReadSectors},       {"dram__write_bytes", RefMetric::DramWriteSectors},
};
constexpr double kSectorBytes = 32;

// Bytes per unit of the byte units ncu prints. It scales byte units by
// powers of 1000, not 1024 (Nsight Compute CLI manual, "Metrics and Units";
// --print-units base keeps "byte").
constexpr std::pair<std::string_view, double> kByteUnits[] = {
    {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12}, {"Pbyte", 1e15}};

// What C's printf writes for a ratio of nothing (0/0) or by nothing: "nan",
// "-nan", "inf", "-inf", with or without a '%'.
bool printf_non_number(std::string_view text) {
  if (!text.empty() && text.back() == '%') text.remove_suffix(1);
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  return text == "nan" || text == "inf";
}

struct Source {
  const std::string& file;
  const Kernel& kernel;
  // Accel-Sim prints a statistic it cannot compute as printf's nan or inf
  // (gpu_occupancy = -nan% when no warp ran): that statistic is not available.
  bool non_number_is_missing = false;
  // The value of statistic `name`, or empty when the kernel lacks it.
  std::optional<double> get(std::string_view name) const {
    auto text = kernel.values.get(name);
    if (!text || text->empty()) return std::nullopt;
    if (non_number_is_missing && printf_non_number(*text)) return std::nullopt;
    return profile::number_at(file, kernel.line, name, *text);
  }
  // A byte count in bytes, scaled by the unit the file gives it; an unknown
  // or missing unit is refused, never guessed.
  std::optional<double> bytes(std::string_view name) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    const std::string unit(kernel.units.get(name).value_or(""));
    for (auto [known, scale] : kByteUnits)
      if (unit == known) return *v * scale;
    fail_input(file, kernel.line,
               std::string(name) + (unit.empty() ? " has no unit" : " is in " + quoted_input(unit)) +
                   ": expected byte, Kbyte, Mbyte, Gbyte, Tbyte or Pbyte");
  }
};

template <size_t N>
void apply_table(const Source& s, const MetricSource (&table)[N], ReferenceKernel& k) {
  for (const MetricSource& m : table) {
    auto v = s.get(m.source);
    if (!v) continue;
    auto& slot = k.metrics[size_t(m.metric)];
    slot = (m.sum && slot ? *slot : 0) + *v * m.scale;
  }
}

void apply_ncu_bytes(const Source& s, ReferenceKernel& k) {
  for (const MetricSource& m : kNcuBytes) {
    auto& slot = k.metrics[size_t(m.metric)];
    if (slot) continue;  // the sector count, or a name read before
    if (auto b = s.bytes(m.source)) slot = *b / kSectorBytes;
  }
}

// nvprof gives L2 hit rates per direction where l2_tex_hit_rate is not
// collected: their mean weighted by each direction's transactions. A
// summary's averages weight it exactly only when the transaction counts were
// the same in every launch (Min = Max): the mean of products is then the
// product of means.
void apply_nvprof_l2_directions(const Source& s, ReferenceKernel& k) {
  auto& slot = k.metrics[size_t(RefMetric::L2HitRate)];
  double hits = 0, total = 0;
  for (const char* dir : {"read", "write"}) {
    const std::string n = std::string("l2_tex_") + dir + "_transactions";
    const auto rate = s.get(std::string("l2_tex_") + dir + "_hit_rate"), count = s.get(n);
    if (slot || !rate || !count) return;
    if (s.kernel.launches > 1 && (!s.get(n + " (Min)") || s.get(n + " (Min)") != s.get(n + " (Max)"))) return;
    hits += *rate / 100 * *count, total += *count;
  }
  if (total > 0) slot = hits / total;
}

// The L2 accesses of some of gpgpu-sim's access types: the sum of their
// TOTAL_ACCESS entries in L2_cache_stats_breakdown. gpgpu-sim prints only
// the entries that are not 0, so a log with the L2's totals
// (L2_total_cache_accesses) has 0 of a type it does not print; without
// those, the count is unknown.
std::optional<double> l2_accesses(const Source& s, std::initializer_list<const char*> types) {
  std::optional<double> sum;
  if (s.get("L2_total_cache_accesses")) sum = 0;
  for (const char* type : types)
    if (auto n = s.get("L2_cache_stats_breakdown[" + std::string(type) + "][TOTAL_ACCESS]")) sum = sum.value_or(0) + *n;
  return sum;
}

// Whether the L2's accesses and DRAM requests are 32-byte sectors: with the
// sectored L2 of Accel-Sim's Volta and later configs (gpgpu_cache:dl2 S:...).
// A log whose L2 is not sectored (N:, the Pascal configs) counts 128-byte
// lines, which are not sectors; a file that does not echo the configuration
// (accelsim_log.csv) is taken as sectored.
bool accelsim_l2_counts_sectors(const Source& s) {
  const auto l2 = s.kernel.values.get(profile::kAccelsimL2Config);
  return !l2 || l2->substr(0, 2) == "S:";
}

// gpgpu-sim's totals (gpgpu_n_tot_w_icount, L1D_total_cache_*,
// L2_total_cache_*, the DRAM totals, gpgpu_n_shmem_bkconflict) count from the
// start of the run: they are a kernel's own only for the run's first kernel
// (its gpu_tot_sim_cycle is its gpu_sim_cycle).
void apply_accelsim_totals(const Source& s, ReferenceKernel& k) {
  const auto cycles = s.get("gpu_sim_cycle"), total_cycles = s.get("gpu_tot_sim_cycle");
  if (!cycles || !total_cycles || *cycles != *total_cycles) return;
  auto& m = k.metrics;
  if (!m[size_t(RefMetric::Instructions)]) m[size_t(RefMetric::Instructions)] = s.get("gpgpu_n_tot_w_icount");
  m[size_t(RefMetric::SmemConflicts)] = s.get("gpgpu_n_shmem_bkconflict");
  if (accelsim_l2_counts_sectors(s)) {
    m[size_t(RefMetric::DramReadSectors)] = s.get("total dram reads");
    m[size_t(RefMetric::DramWriteSectors)] = s.get("total dram writes");
    m[size_t(RefMetric::L2ReadSectors)] = l2_accesses(s, {"GLOBAL_ACC_R", "LOCAL_ACC_R"});
    m[size_t(RefMetric::L2WriteSectors)] = l2_accesses(s, {"GLOBAL_ACC_W", "LOCAL_ACC_W"});
  }
  auto hit_rate = [&](const char* accesses, const char* miss_rate) -> std::optional<double> {
    auto n = s.get(accesses), miss = s.get(miss_rate);
    if (!n || !miss || *n <= 0) return std::nullopt;
    return 1 - *miss;
  };
  if (!m[size_t(RefMetric::L1HitRate)])
    m[size_t(RefMetric::L1HitRate)] = hit_rate("L1D_total_cache_accesses", "L1D_total_cache_miss_rate");
  if (!m[size_t(RefMetric::L2HitRate)])
    m[size_t(RefMetric::L2HitRate)] = hit_rate("L2_total_cache_accesses", "L2_total_cache_miss_rate");
}

// Accel-Sim statistic names (gpgpu-sim's gpu-sim.cc / shader.cc printouts).
void apply_accelsim(const Source& s, ReferenceKernel& k) {
  auto& m = k.metrics;
  const auto cycles = s.kernel.cycles;
  m[size_t(RefMetric::Instructions)] = s.get("warp_instruction_count");
  if (auto occ = s.get("gpu_occupancy")) m[size_t(RefMetric::Occupancy)] = *occ / 100;
  auto rd = s.get("num_global_mem_read"), wr = s.get("num_global_mem_write");
  if (rd || wr) m[size_t(RefMetric::GmemRequests)] = rd.value_or(0) + wr.value_or(0);
  auto l1_acc = s.get("l1_data_cache_total_accesses"), l1_miss = s.get("l1_data_cache_total_misses");
  if (l1_acc && l1_miss && *l1_acc > 0) m[size_t(RefMetric::L1HitRate)] = 1 - *l1_miss / *l1_acc;
  double l2_hit = 0, l2_total = 0;
  for (const char* op : {"read", "write"}) {
    l2_hit += s.get("l2_cache_global_" + std::string(op) + "_hit").value_or(0);
    l2_total += s.get("l2_cache_global_" + std::string(op) + "_total").value_or(0);
  }
  if (l2_total > 0) m[size_t(RefMetric::L2HitRate)] = l2_hit / l2_total;
  apply_accelsim_totals(s, k);
  if (cycles && *cycles > 0 && m[size_t(RefMetric::Instructions)])
    m[size_t(RefMetric::Ipc)] = *m[size_t(RefMetric::Instructions)] / *cycles;
}

// The shares of the compared stall types in the reasons the reference has.
void apply_stalls(const Source& s, profile::Layout layout, ReferenceKernel& k) {
  k.stalls = reference_stalls(layout, [&](const std::string& metric) { return s.get(metric); });
  if (!k.stalls || k.stalls->mapped() <= 0) return;
  for (size_t i = 0; i < kComparedStallTypes.size(); ++i)
    k.metrics[kFirstStallShare + i] = k.stalls->by_type[size_t(kComparedStallTypes[i])] / k.stalls->mapped();
}

// Plain CSV columns named as ref_metric_name(); "25%" is 0.25.
void apply_plain(const Source& s, ReferenceKernel& k) {
  for (size_t m = 1; m < kRefMetrics; ++m) {
    auto text = s.kernel.values.get(kMetricNames[m]);
    if (!text) continue;
    const double v = *s.get(kMetricNames[m]);
    k.metrics[m] = text->find('%') != std::string_view::npos ? v / 100 : v;
  }
}

// The L2 sectors as reads plus writes, where the file gives both and not
// their sum (a plain CSV may give the sum alone).
void add_l2_total(ReferenceKernel& k) {
  auto& total = k.metrics[size_t(RefMetric::L2Sectors)];
  const auto& rd = k.metrics[size_t(RefMetric::L2ReadSectors)];
  const auto& wr = k.metrics[size_t(RefMetric::L2WriteSectors)];
  if (!total && rd && wr) total = *rd + *wr;
}

bool has_metrics(Layout layout) {
  return layout != Layout::Wide && layout != Layout::NsysGpuTrace && layout != Layout::NsysKernExec &&
         layout != Layout::NsysKernSum && layout != Layout::NsysSqlite;
}

// get_stats.py -k folds a name's launches into one row in ways its statistics
// do not state (sums, last values), and rows of several apps are not one
// program's launches: only per-launch rows of one app are compared.
void refuse_aggregates(const profile::Profile& p) {
  if (p.layout != Layout::AccelsimStats) return;
  const std::string_view app = *p.kernels.front().values.get("APPS");
  for (const Kernel& k : p.kernels) {
    if (k.launches > 1)
      fail_input(p.source, k.line,
                 quoted_input(k.name) + " folds " + std::to_string(k.launches) +
                     " launches into one row (get_stats.py -k); validate against per-launch rows (get_stats.py -K)");
    if (k.values.get("APPS") != app)
      fail_input(p.source, k.line,
                 "rows of apps " + quoted_input(app) + " and " + quoted_input(*k.values.get("APPS")) +
                     ": a reference is one program's; keep one app's rows");
  }
}

// Each kernel's application where the file names more than one process:
// its Process Name, with the Process ID where one name has several.
void set_applications(const profile::Profile& p, Reference& ref) {
  std::map<std::string, std::set<std::string>> pids;  // name -> its process ids
  for (const Kernel& k : p.kernels)
    if (auto name = k.values.get("Process Name"))
      pids[std::string(*name)].insert(std::string(k.values.get("Process ID").value_or("")));
  size_t processes = 0;
  for (const auto& [name, ids] : pids) processes += ids.size();
  if (processes < 2) return;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const std::string name(p.kernels[i].values.get("Process Name").value_or(""));
    const std::string pid(p.kernels[i].values.get("Process ID").value_or(""));
    ref.kernels[i].application = pids[name].size() > 1 ? name + " [" + pid + "]" : name;
  }
}

}  // namespace

std::vector<std::string> reference_applications(const Reference& ref) {
  std::vector<std::string> apps;
  for (const ReferenceKernel& k : ref.kernels)
    if (std::find(apps.begin(), apps.end(), k.application) == apps.end()) apps.push_back(k.application);
  return apps;
}

Reference application_reference(const Reference& ref, const std::string& application) {
  Reference one{ref.format, {}};
  for (const ReferenceKernel& k : ref.kernels) {
    if (k.application != application) continue;
    one.kernels.push_back(k);
    if (k.id) one.kernels.back().id = one.kernels.size();
  }
  return one;
}

const char* ref_metric_name(RefMetric m) { return kMetricNames[static_cast<size_t>(m)]; }

bool ref_metric_is_fraction(RefMetric m) {
  return m == RefMetric::L1HitRate || m == RefMetric::L2HitRate || m == RefMetric::Occupancy ||
         ref_metric_stall_type(m).has_value();
}

std::optional<StallType> ref_metric_stall_type(RefMetric m) {
  const size_t i = size_t(m);
  if (i < kFirstStallShare || i >= kRefMetrics) return std::nullopt;
  return kComparedStallTypes[i - kFirstStallShare];
}

Reference to_reference(const profile::Profile& p) {
  if (!has_metrics(p.layout))
    fail_input(p.source, std::string("this ") + profile::layout_name(p.layout) +
                             " export holds kernel times only; a reference needs cycles, instructions or rates "
                             "(ncu, nvprof, Accel-Sim or a plain CSV)");
  if (p.kernels.empty()) fail_input(p.source, "no kernels in the reference");
  refuse_aggregates(p);
  Reference ref{profile::layout_name(p.layout), {}};
  ref.kernels.reserve(p.kernels.size());  // a grown vector would hold its old buffer beside the new at the end
  for (const Kernel& kernel : p.kernels) {
    ReferenceKernel k{kernel.id, kernel.name, kernel.launches, {}};
    k.metrics[size_t(RefMetric::Cycles)] = kernel.cycles;
    const bool accelsim = p.layout == Layout::AccelsimCsv || p.layout == Layout::AccelsimStats ||
                          p.layout == Layout::AccelsimLog;
    const Source s{p.source, kernel, accelsim};
    switch (p.layout) {
      case Layout::NcuRaw:
      case Layout::NcuDetails:
        apply_table(s, kNcu, k);
        apply_ncu_bytes(s, k);
        apply_stalls(s, p.layout, k);
        break;
      case Layout::NvprofTrace:
      case Layout::NvprofSummary:  // a summary row is a launch's average: the metrics are per launch
        apply_table(s, kNvprof, k);
        apply_nvprof_l2_directions(s, k);
        apply_stalls(s, p.layout, k);
        break;
      case Layout::AccelsimCsv:
      case Layout::AccelsimStats:
      case Layout::AccelsimLog: apply_accelsim(s, k); break;
      default: apply_plain(s, k); break;
    }
    add_l2_total(k);
    ref.kernels.push_back(std::move(k));
  }
  set_applications(p, ref);
  const bool any = std::any_of(ref.kernels.begin(), ref.kernels.end(), [](const ReferenceKernel& k) {
    return std::any_of(k.metrics.begin(), k.metrics.end(), [](const auto& m) { return m.has_value(); });
  });
  if (!any)
    fail_input(p.source, "no kernel has a metric to validate against (cycles, inst_executed, ipc, hit rates, "
                         "occupancy; formats/PROFILES.md)");
  return ref;
}

Reference read_reference(std::istream& in, const std::string& name, const profile::ReadOptions& options) {
  return to_reference(profile::read_profile(in, name, options));
}

Reference load_reference(const std::string& path, const profile::ReadOptions& options) {
  return to_reference(profile::load_profile(path, options));
}

}  // namespace sasskit
