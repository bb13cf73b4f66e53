// The hand-made layouts (formats/PROFILES.md, "Hand-made CSV"). Plain: an id
// and/or a name column, then numeric columns by name; "duration" is the
// time in ns and "cycles" the elapsed cycles. Wide: one column per kernel
// name with its durations (ns) down the column, ragged (as the STEM
// artifact's runtime-example.csv); launch order across columns is unknown,
// so ids run column after column.
#include <algorithm>

#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

namespace {

// The column whose name is one of `names` (compared lower_trimmed), or -1.
// Two such columns are BadInput: which one holds the value is a guess.
int find_lower(const Table& t, std::initializer_list<std::string_view> names) {
  int found = -1;
  for (size_t c = 0; c < t.header.size(); ++c) {
    if (std::find(names.begin(), names.end(), lower_trimmed(t.header[c])) == names.end()) continue;
    if (found >= 0)
      fail_input(t.file, t.header_line,
                 "columns " + std::to_string(found + 1) + " (" + quoted_input(t.header[found]) + ") and " +
                     std::to_string(c + 1) + " (" + quoted_input(t.header[c]) + ") both name the " +
                     std::string(*names.begin()) + ": keep one");
    found = static_cast<int>(c);
  }
  return found;
}

double non_negative(const Table& t, uint64_t line, const std::string& what, const std::string& text) {
  double v = number_at(t.file, line, what, text);
  if (v < 0) fail_input(t.file, line, what + " " + quoted_input(text) + " is negative");
  return v;
}

}  // namespace

void read_plain(Table& t, Profile& p) {
  const int id = find_lower(t, {"id", "kernel_id"}), name = find_lower(t, {"name", "kernel", "kernel_name"});
  const int duration = find_lower(t, {"duration"}), cycles = find_lower(t, {"cycles"});
  if (duration >= 0) p.time_from = t.header[duration];
  if (cycles >= 0) p.cycles_from = t.header[cycles];
  p.kernels.reserve(p.kernels.size() + t.rows.size());  // a row per kernel
  for (const Row& r : t.rows) {
    Kernel k = p.new_kernel();
    k.line = r.line;
    if (id >= 0) k.id = count_at(t.file, r.line, t.header[id], r.fields[id]);
    if (name >= 0) k.name = r.fields[name];
    for (size_t c = 0; c < r.fields.size(); ++c) {
      if (static_cast<int>(c) == id || static_cast<int>(c) == name || r.fields[c].empty()) continue;
      const double v = non_negative(t, r.line, t.header[c], r.fields[c]);
      if (static_cast<int>(c) == duration) k.time_ns = v;
      if (static_cast<int>(c) == cycles) k.cycles = v;
      k.values.set(t.header[c], r.fields[c]);
    }
    p.kernels.push_back(std::move(k));
  }
}

void read_wide(Table& t, Profile& p) {
  std::vector<std::vector<std::pair<uint64_t, double>>> columns(t.header.size());
  for (const Row& r : t.rows)
    for (size_t c = 0; c < r.fields.size(); ++c)
      if (!r.fields[c].empty())
        columns[c].emplace_back(r.line, non_negative(t, r.line, "duration of " + t.header[c], r.fields[c]));
  p.time_from = "one column per kernel (ns)";
  for (size_t c = 0; c < t.header.size(); ++c)
    for (auto [line, ns] : columns[c]) {
      Kernel k;
      k.line = line;
      k.id = p.kernels.size() + 1;
      k.name = t.header[c];
      k.time_ns = ns;
      p.kernels.push_back(std::move(k));
    }
}

}  // namespace sasskit::profile
