// Nsight Compute CSV (formats/PROFILES.md, "ncu"): the raw page, one row per
// launch and one column per metric under a units row, and the details page,
// one row per launch and metric with its unit. Kernel ids are ncu's 0-based
// "ID" + 1. Durations come from the first of kCycles and kTimes that every
// launch has, so old and new metric names and the default sections all work.
#include <map>

#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

namespace {

// Elapsed cycles: the metric names of Nsight Compute 2020+ ("Kernel Profiling
// Guide", metrics structure), the pre-2020 spelling, and the Speed Of Light
// section's name for the same counter in the details page.
constexpr const char* kCycles[] = {"gpc__cycles_elapsed.max", "gpc__elapsed_cycles_max", "Elapsed Cycles",
                                   "gpc__cycles_elapsed.avg", "sm__cycles_elapsed.max"};
// Kernel time: the 2020+ metric, the older one, and the section's "Duration".
constexpr const char* kTimes[] = {"gpu__time_duration.sum", "gpu__time_duration", "Duration"};

template <size_t N>
bool listed(std::string_view name, const char* const (&names)[N]) {
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

// Units are kept for the metrics durations come from and for byte counts
// (dram__bytes_read.sum, dram__read_bytes), which ncu scales to Kbyte, Mbyte,
// ... unless run with --print-units base.
bool unit_matters(std::string_view name) {
  return listed(name, kCycles) || listed(name, kTimes) || name.find("bytes") != std::string_view::npos;
}

std::optional<std::string_view> value(const Kernel& k, std::string_view metric) { return k.values.get(metric); }

std::string unit(const Kernel& k, std::string_view metric) { return std::string(k.units.get(metric).value_or("")); }

template <size_t N>
std::string first_in_all(const std::vector<Kernel>& launches, const char* const (&names)[N]) {
  for (const char* n : names) {
    bool all = !launches.empty();
    for (const Kernel& l : launches) all = all && value(l, n);
    if (all) return n;
  }
  return {};
}

void set_cycles(const Table& t, Kernel& l, const std::string& metric) {
  const std::string u = unit(l, metric);
  if (!u.empty() && u != "cycle") fail_input(t.file, l.line, metric + " is in " + quoted_input(u) + ", expected cycle");
  const std::string_view text = *value(l, metric);
  double v = number_at(t.file, l.line, metric, text);
  if (v < 0) fail_input(t.file, l.line, metric + " " + bounded_input(text) + " is negative");
  l.cycles = v;
}

// Grid and block sizes: the raw page's launch__ metrics, or the details
// page's "(x, y, z)" columns.
uint64_t launch_size(const Table& t, const Kernel& l, const char* metric, const char* xyz_column) {
  if (auto v = value(l, metric)) return count_at(t.file, l.line, metric, *v);
  const auto found = value(l, xyz_column);
  if (!found) return 0;
  const std::string xyz(*found);
  std::string digits;
  uint64_t size = 1;
  int dims = 0;
  for (size_t i = 0; i <= xyz.size(); ++i) {
    char c = i < xyz.size() ? xyz[i] : ',';
    if (c >= '0' && c <= '9') digits.push_back(c);
    else if ((c == ',' || c == ')') && !digits.empty()) {
      if (__builtin_mul_overflow(size, count_at(t.file, l.line, xyz_column, digits), &size))
        fail_input(t.file, l.line, std::string(xyz_column) + " " + quoted_input(xyz) + " does not fit in 64 bits");
      digits.clear();
      ++dims;
    } else if (c != ' ' && c != '(' && c != ',' && c != ')') {
      fail_input(t.file, l.line, std::string(xyz_column) + " " + quoted_input(xyz) + " is not '(x, y, z)'");
    }
  }
  if (dims != 3) fail_input(t.file, l.line, std::string(xyz_column) + " " + quoted_input(xyz) + " is not '(x, y, z)'");
  return size;
}

void finish(const Table& t, std::vector<Kernel>& launches, Profile& p) {
  p.cycles_from = first_in_all(launches, kCycles);
  p.time_from = first_in_all(launches, kTimes);
  for (Kernel& l : launches) {
    if (!p.cycles_from.empty()) set_cycles(t, l, p.cycles_from);
    if (!p.time_from.empty())
      l.time_ns = time_in_ns(t, l.line, p.time_from, unit(l, p.time_from), *value(l, p.time_from));
    l.ctas = launch_size(t, l, "launch__grid_size", "Grid Size");
    l.threads_per_cta = launch_size(t, l, "launch__block_size", "Block Size");
    p.kernels.push_back(std::move(l));
  }
}

}  // namespace

void read_ncu_raw(Table& t, Profile& p) {
  const int id = t.need("ID"), name = t.need("Kernel Name");
  const std::vector<std::string> units = t.take_units_row(id);
  std::vector<Kernel> launches;
  for (const Row& r : t.rows) {
    Kernel l = p.new_kernel();
    l.line = r.line;
    l.id = count_at(t.file, r.line, "ID", r.fields[id]) + 1;
    l.name = r.fields[name];
    t.keep_values(r, l);
    for (size_t c = 0; c < units.size(); ++c)
      if (!units[c].empty() && unit_matters(t.header[c])) l.units.set(t.header_ids[c], units[c]);
    launches.push_back(std::move(l));
  }
  finish(t, launches, p);
}

void read_ncu_details(Table& t, Profile& p) {
  const int id = t.need("ID"), name = t.need("Kernel Name"), metric = t.need("Metric Name"),
            metric_value = t.need("Metric Value"), metric_unit = t.column("Metric Unit");
  std::vector<Kernel> launches;
  std::map<uint64_t, size_t> by_id;
  for (const Row& r : t.rows) {
    const uint64_t kid = count_at(t.file, r.line, "ID", r.fields[id]);
    auto [it, fresh] = by_id.emplace(kid, launches.size());
    if (fresh) {
      Kernel l = p.new_kernel();
      l.line = r.line;
      l.id = kid + 1;
      l.name = r.fields[name];
      for (const char* c : {"Block Size", "Grid Size", "Process ID", "Process Name"})
        if (int col = t.column(c); col >= 0) l.values.set(c, r.fields[col]);
      launches.push_back(std::move(l));
    }
    Kernel& l = launches[it->second];
    l.values.set(r.fields[metric], r.fields[metric_value]);
    if (metric_unit >= 0 && unit_matters(r.fields[metric])) l.units.set(r.fields[metric], r.fields[metric_unit]);
  }
  finish(t, launches, p);
}

}  // namespace sasskit::profile
