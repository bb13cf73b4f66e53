// Accel-Sim statistics (formats/PROFILES.md, "Accel-Sim"): the simulator's
// stdout, where each kernel's block starts with "kernel_name = NAME" and
// holds "stat = value" lines (those before the first kernel are its
// configuration), and the "kernel,kernel_id,stat,value" CSV.
// Statistic names are gpgpu-sim's (gpu-sim.cc printouts); a kernel's id is
// its kernel_launch_uid, its cycles gpu_sim_cycle (per kernel) or, when only
// that is printed, gpu_tot_sim_cycle.
#include <map>

#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

void set_accelsim_identity(const std::string& file, Kernel& k) {
  if (auto uid = k.values.get("kernel_launch_uid")) k.id = count_at(file, k.line, "kernel_launch_uid", *uid);
  const char* from = k.values.contains("gpu_sim_cycle") ? "gpu_sim_cycle" : "gpu_tot_sim_cycle";
  if (auto cycles = k.values.get(from)) k.cycles = static_cast<double>(count_at(file, k.line, from, *cycles));
}

void read_accelsim_csv(Table& t, Profile& p) {
  std::map<std::string, size_t> by_id;  // kernel_id column -> kernel
  for (const Row& r : t.rows) {
    auto [it, fresh] = by_id.emplace(r.fields[1], p.kernels.size());
    if (fresh) {
      p.kernels.push_back(p.new_kernel());
      p.kernels.back().line = r.line;
    }
    p.kernels[it->second].values.set(r.fields[2], r.fields[3]);
  }
  p.cycles_from = "gpu_sim_cycle";
  for (Kernel& k : p.kernels) set_accelsim_identity(t.file, k);
}

namespace {

// Statistics whose names hold spaces (gpgpu-sim's DRAM totals); other
// "a b = c" lines are messages, not statistics.
bool spaced_statistic(std::string_view key) { return key == "total dram reads" || key == "total dram writes"; }

// The value of a configuration option as the log echoes it
// ("-gpgpu_cache:dl2     S:32:128:24,... # comment"), or empty.
std::string_view option_value(std::string_view line, std::string_view option) {
  if (line.substr(0, option.size()) != option || line.size() == option.size() || line[option.size()] != ' ')
    return {};
  line.remove_prefix(option.size());
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  return line.substr(0, line.find(' '));
}

}  // namespace

void read_accelsim_log(const Text& text, Profile& p) {
  p.cycles_from = "gpu_sim_cycle";
  Kernel current = p.new_kernel();
  bool in_kernel = false;  // "key = value" lines before the first kernel are the configuration
  // The L2's configuration, which says whether its accesses are sectors
  // (formats/reference_stats.cpp): given to each kernel as a value.
  std::string l2_config;
  auto flush = [&] {
    if (!in_kernel) return;
    if (!l2_config.empty()) current.values.set(kAccelsimL2Config, l2_config);
    set_accelsim_identity(p.source, current);
    p.kernels.push_back(std::move(current));
    current = p.new_kernel();
  };
  std::string text_line;
  for (size_t i = 0; i < text.lines(); ++i) {
    text.line(i, text_line);
    std::string_view line = text_line;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!in_kernel)
      if (auto l2 = option_value(line, "-gpgpu_cache:dl2"); !l2.empty()) l2_config = l2;
    // The cache statistics are indented with a tab.
    while (!line.empty() && (line.front() == '\t' || line.front() == ' ')) line.remove_prefix(1);
    const size_t eq = line.find(" = ");
    if (eq == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, eq), value = line.substr(eq + 3);
    if (key == "kernel_name") {
      flush();
      in_kernel = true;
      current.name = value;
      current.line = i + 1;
    } else if (in_kernel && !key.empty() && (key.find(' ') == std::string_view::npos || spaced_statistic(key))) {
      current.values.set(key, value);
    }
  }
  flush();
}

}  // namespace sasskit::profile
