#include "formats/reference_stats.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "formats/csv.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit {

namespace {

constexpr std::array<const char*, kRefMetrics> kMetricNames = {
    "cycles", "instructions", "ipc", "sm_ipc", "gmem_requests", "l1_hit_rate", "l2_hit_rate", "occupancy"};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string> header_fields(const std::string& line) {
  std::vector<std::string> fields;
  split_csv_line(strip_bom(line), fields);
  return fields;
}

bool has_field(const std::vector<std::string>& fields, std::string_view f) {
  return std::find(fields.begin(), fields.end(), f) != fields.end();
}

// The first line that is neither blank nor one of nvprof's "==PID==" notes.
size_t first_content_line(const std::vector<std::string>& lines) {
  size_t i = 0;
  while (i < lines.size() && (lines[i].find_first_not_of(" \t\r") == std::string::npos || starts_with(lines[i], "==")))
    ++i;
  return i;
}

bool looks_like_accelsim_log(const std::vector<std::string>& lines) {
  return std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return starts_with(l, "gpu_sim_cycle = ") || starts_with(l, "gpu_tot_sim_cycle = ");
  });
}

[[noreturn]] void unknown_layout(const std::string& name, size_t line, const std::vector<std::string>& fields) {
  std::string cols;
  for (size_t i = 0; i < fields.size() && i < 12; ++i) cols += (i ? ", " : "") + fields[i];
  if (fields.size() > 12) cols += ", ...";
  fail_input(name, line + 1,
             "unknown reference layout (columns: " + cols +
                 "); expected Nsight Compute CSV, nvprof CSV, Accel-Sim statistics, or a plain CSV with an id or "
                 "name column and cycles, instructions, ipc, sm_ipc, gmem_requests, l1_hit_rate, l2_hit_rate or "
                 "occupancy columns");
}

}  // namespace

const char* ref_metric_name(RefMetric m) { return kMetricNames[static_cast<size_t>(m)]; }

bool ref_metric_is_fraction(RefMetric m) {
  return m == RefMetric::L1HitRate || m == RefMetric::L2HitRate || m == RefMetric::Occupancy;
}

std::optional<double> parse_reference_number(std::string_view text) {
  std::string clean;
  for (char c : text)
    if (c != ',' && c != ' ' && c != '"' && c != '%') clean.push_back(c);
  if (clean.empty()) return std::nullopt;
  double v = 0;
  auto [end, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), v);
  if (ec != std::errc() || end != clean.data() + clean.size()) return std::nullopt;
  return v;
}

Reference read_plain(const std::vector<std::string>& lines, const std::string& name) {
  size_t h = first_content_line(lines);
  std::vector<std::string> head = header_fields(lines[h]);
  int id_col = -1, name_col = -1;
  std::vector<std::pair<size_t, RefMetric>> metric_cols;
  for (size_t c = 0; c < head.size(); ++c) {
    const std::string& f = head[c];
    if (f == "id" || f == "kernel_id") id_col = int(c);
    else if (f == "name" || f == "kernel" || f == "kernel_name") name_col = int(c);
    for (size_t m = 0; m < kRefMetrics; ++m)
      if (f == kMetricNames[m]) metric_cols.emplace_back(c, RefMetric(m));
  }
  if ((id_col < 0 && name_col < 0) || metric_cols.empty()) unknown_layout(name, h, head);
  Reference ref{"plain", {}};
  std::vector<std::string> fields;
  for (size_t i = h + 1; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!split_csv_line(lines[i], fields)) fail_input(name, i + 1, "unclosed quote");
    if (fields.size() != head.size())
      fail_input(name, i + 1, std::to_string(fields.size()) + " fields, expected " + std::to_string(head.size()));
    ReferenceKernel k;
    if (id_col >= 0) {
      auto id = parse_reference_number(fields[id_col]);
      if (!id || *id < 0) fail_input(name, i + 1, "kernel id '" + fields[id_col] + "' is not a number");
      k.id = uint64_t(*id);
    }
    if (name_col >= 0) k.name = fields[name_col];
    for (auto [c, m] : metric_cols) {
      if (fields[c].empty()) continue;
      auto v = parse_reference_number(fields[c]);
      if (!v) fail_input(name, i + 1, std::string(kMetricNames[size_t(m)]) + " '" + fields[c] + "' is not a number");
      bool percent = fields[c].find('%') != std::string::npos;
      k.metrics[size_t(m)] = percent ? *v / 100 : *v;
    }
    ref.kernels.push_back(std::move(k));
  }
  return ref;
}

Reference read_reference(std::istream& in, const std::string& name) {
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  if (looks_like_accelsim_log(lines)) return read_accelsim_log(lines, name);
  size_t h = first_content_line(lines);
  if (h == lines.size()) fail_input(name, "empty reference file");
  std::vector<std::string> head = header_fields(lines[h]);
  Reference ref;
  if (head.size() >= 4 && head[0] == "kernel" && head[1] == "kernel_id" && head[2] == "stat" && head[3] == "value")
    ref = read_accelsim_csv(lines, name);
  else if (has_field(head, "Kernel") && has_field(head, "Device"))
    ref = read_nvprof(lines, name);
  else if (has_field(head, "Kernel Name"))
    ref = read_ncu(lines, name);
  else
    ref = read_plain(lines, name);
  if (ref.kernels.empty()) fail_input(name, "no kernels in the reference");
  return ref;
}

Reference load_reference(const std::string& path) {
  Input in(path);
  Reference ref = read_reference(in.stream(), in.name());
  in.check_read_error();
  return ref;
}

}  // namespace sasskit
