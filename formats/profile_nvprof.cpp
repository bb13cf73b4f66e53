// nvprof CSV (formats/PROFILES.md, "nvprof"). The GPU trace has one row per
// activity under a units row ("s", "ms", "us" or "ns" for Start and
// Duration); memory copies and sets ("[CUDA memcpy HtoD]") are not kernels.
// With --metrics or --events the trace has a "Kernel" column and no
// Duration. The summary (--metrics/--events without the trace) has one row
// per kernel name and metric, with the number of invocations; its values are
// the Avg column, the Min and Max kept as "NAME (Min)" and "NAME (Max)".
#include <map>

#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/kernel_name.hpp"

namespace sasskit::profile {

namespace {

uint64_t grid_volume(const Table& t, const Row& r, const char* const (&columns)[3]) {
  uint64_t v = 1;
  for (const char* c : columns) {
    const int col = t.column(c);
    if (col < 0) return 0;
    v *= count_at(t.file, r.line, c, r.fields[col]);
  }
  return v;
}

bool is_memory_activity(std::string_view name) { return name.starts_with("[CUDA "); }

}  // namespace

void read_nvprof_trace(Table& t, Profile& p) {
  const int name = t.first_column({"Name", "Kernel"}), duration = t.column("Duration");
  const std::vector<std::string> units = t.take_units_row(t.first_column({"Start", "Correlation_ID", "Device"}));
  if (duration >= 0 && units.empty())
    fail_input(t.file, t.header_line + 1, "no units row under the nvprof header: the unit of Duration is unknown");
  if (duration >= 0) p.time_from = "Duration";
  uint64_t order = 0;
  for (const Row& r : t.rows) {
    const std::string& n = r.fields[name];
    if (is_memory_activity(n)) continue;
    if (t.column("Grid X") >= 0 && r.fields[t.column("Grid X")].empty()) continue;  // not a kernel
    Kernel k = p.new_kernel();
    k.line = r.line;
    k.id = ++order;
    k.name = without_correlation_id(n);
    k.ctas = grid_volume(t, r, {"Grid X", "Grid Y", "Grid Z"});
    k.threads_per_cta = grid_volume(t, r, {"Block X", "Block Y", "Block Z"});
    if (duration >= 0) k.time_ns = time_in_ns(t, r.line, "Duration", units[duration], r.fields[duration]);
    t.keep_values(r, k);
    p.kernels.push_back(std::move(k));
  }
}

void read_nvprof_summary(Table& t, Profile& p) {
  const int device = t.column("Device"), name = t.need("Kernel"), calls = t.need("Invocations"),
            metric = t.first_column({"Metric Name", "Event Name"}), avg = t.need("Avg"),
            min = t.column("Min"), max = t.column("Max");
  std::map<std::pair<std::string, std::string>, size_t> index;  // (device, kernel) -> kernel
  for (const Row& r : t.rows) {
    const std::string dev = device >= 0 ? r.fields[device] : std::string();
    auto [it, fresh] = index.emplace(std::make_pair(dev, r.fields[name]), p.kernels.size());
    const uint64_t n = count_at(t.file, r.line, "Invocations", r.fields[calls]);
    if (fresh) {
      Kernel k = p.new_kernel();
      k.line = r.line;
      k.name = r.fields[name];
      k.launches = n;
      p.kernels.push_back(std::move(k));
    } else if (p.kernels[it->second].launches != n) {
      fail_input(t.file, r.line,
                 "Invocations " + r.fields[calls] + " differs from " +
                     std::to_string(p.kernels[it->second].launches) + " on line " +
                     std::to_string(p.kernels[it->second].line) + " for the same kernel");
    }
    Values& values = p.kernels[it->second].values;
    values.set(r.fields[metric], r.fields[avg]);
    // Whether a value was the same in every launch: "NAME (Min)", "NAME (Max)".
    for (auto [col, suffix] : {std::pair{min, " (Min)"}, std::pair{max, " (Max)"}})
      if (col >= 0) values.set(r.fields[metric] + suffix, r.fields[col]);
  }
}

}  // namespace sasskit::profile
