// Finding the CSV in a text export and recognising its layout from its
// header; shared number and unit parsing.
#include "formats/profile.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "formats/csv.hpp"
#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit::profile {

namespace {

constexpr const char* kLayoutNames[] = {
    "ncu-raw",     "ncu-details",    "nvprof-trace",  "nvprof-summary", "nsys-gpu-trace", "nsys-kern-exec",
    "nsys-kern-sum", "nsys-sqlite", "accelsim-log", "accelsim-csv", "accelsim-stats", "plain",          "wide"};

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// nvprof's "==PID==" and ncu's "==PROF==" lines, anywhere in the file.
bool tool_note(std::string_view line) { return line.starts_with("=="); }

bool has(const std::vector<std::string>& h, std::string_view name) {
  return std::find(h.begin(), h.end(), name) != h.end();
}

bool any_metric_column(const std::vector<std::string>& h) {
  return std::any_of(h.begin(), h.end(), [](const std::string& c) { return c.find("__") != std::string::npos; });
}

// The profiler layout a header line belongs to, if any.
std::optional<Layout> profiler_layout(const std::vector<std::string>& h) {
  if (has(h, "ID") && has(h, "Kernel Name")) {
    if (has(h, "Metric Name") && has(h, "Metric Value")) return Layout::NcuDetails;
    if (any_metric_column(h)) return Layout::NcuRaw;
  }
  if (has(h, "Kernel") && has(h, "Invocations") && has(h, "Avg") && (has(h, "Metric Name") || has(h, "Event Name")))
    return Layout::NvprofSummary;
  if (has(h, "Device") && ((has(h, "Name") && has(h, "Grid X")) || (has(h, "Kernel") && has(h, "Correlation_ID"))))
    return Layout::NvprofTrace;
  if (has(h, "Kernel Dur (ns)") && has(h, "Kernel Name")) return Layout::NsysKernExec;
  if (has(h, "Name") && has(h, "GrdX") && (has(h, "Duration (ns)") || has(h, "Duration"))) return Layout::NsysGpuTrace;
  if (has(h, "Name") && has(h, "Instances") && has(h, "Total Time (ns)")) return Layout::NsysKernSum;
  if (h.size() == 4 && h[0] == "kernel" && h[1] == "kernel_id" && h[2] == "stat" && h[3] == "value")
    return Layout::AccelsimCsv;
  return std::nullopt;
}

bool is_key_column(const std::string& c) {
  const std::string l = lower_trimmed(c);
  return l == "id" || l == "kernel_id" || l == "name" || l == "kernel" || l == "kernel_name";
}

bool numeric_or_empty(const std::string& s) { return blank(s) || parse_number(s).has_value(); }

// A hand-made layout for a header that is the first content line.
std::optional<Layout> hand_made_layout(const std::vector<std::string>& h, const std::vector<std::string>* next) {
  if (h.size() >= 2 && std::any_of(h.begin(), h.end(), is_key_column)) return Layout::Plain;
  const bool named = std::all_of(h.begin(), h.end(), [](const std::string& c) { return !numeric_or_empty(c); });
  if (named && next && std::all_of(next->begin(), next->end(), numeric_or_empty)) return Layout::Wide;
  return std::nullopt;
}

using Line = Rows::Line;

[[noreturn]] void unknown_layout(const std::string& name, const Line& first) {
  std::vector<std::string> fields;
  split_csv_line(first.text, fields);
  std::string cols;
  for (size_t i = 0; i < fields.size() && i < 12; ++i) cols += (i ? ", " : "") + bounded_input(fields[i]);
  if (fields.size() > 12) cols += ", ...";
  fail_input(name, first.number,
             "unknown profile layout (columns: " + cols +
                 "); expected ncu --csv, nvprof --csv, nsys stats --format csv, Accel-Sim statistics, "
                 "'id,name,...' or one column per kernel name (see formats/PROFILES.md)");
}

// The input's bytes, read once. The layout is recognised from all of them (a
// hand-made layout only where no profiler header appears anywhere, an
// Accel-Sim log by a statistic line anywhere), and every line the readers
// visit is a view into them: what a read holds beyond them is what it keeps.
std::string read_all(std::istream& in) {
  std::string text;
  std::array<char, 1 << 16> chunk;
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) text.append(chunk.data(), size_t(in.gcount()));
  return text;
}

// The next line of `text` from `at` (without its '\n'), moving `at` past it.
std::string_view next_line(std::string_view text, size_t& at) {
  const size_t end = std::min(text.find('\n', at), text.size());
  const std::string_view line = text.substr(at, end - at);
  at = end + 1;
  return line;
}

std::vector<std::string_view> all_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < text.size();) lines.push_back(next_line(text, at));
  return lines;
}

// The CSV records of `text` that are not blank or tool notes, each numbered
// by its first line: a record whose quoted field holds a line break goes
// on with the next lines, up to the one that closes the field (or the end
// of the file, which leaves it unterminated).
std::vector<Line> content_lines(std::string_view text) {
  std::vector<Line> out;
  uint64_t number = 0;
  for (size_t at = 0; at < text.size();) {
    size_t start = at;
    std::string_view line = next_line(text, at);
    const uint64_t first = ++number;
    if (first == 1) {
      const std::string_view stripped = strip_bom(line);
      start += line.size() - stripped.size();
      line = stripped;
    }
    if (blank(line) || tool_note(line)) continue;
    for (bool open = csv_quote_open_after(line, false); open && at < text.size(); ++number) {
      const std::string_view more = next_line(text, at);
      open = csv_quote_open_after(more, true);
      line = text.substr(start, size_t(more.data() + more.size() - (text.data() + start)));
    }
    out.push_back({first, line});
  }
  return out;
}

// The header at content[header] and every content line after it; rows of the
// wide layout may be shorter than the header.
void make_table(Table& t, const std::string& name, const std::vector<Line>& content, size_t header, bool ragged) {
  t.file = name;
  t.header_line = content[header].number;
  split_csv_line(content[header].text, t.header);
  t.rows = Rows(t, std::span(content).subspan(header + 1), ragged);
}

void read_table(Layout layout, Table& t, Profile& p) {
  switch (layout) {
    case Layout::NcuRaw: return read_ncu_raw(t, p);
    case Layout::NcuDetails: return read_ncu_details(t, p);
    case Layout::NvprofTrace: return read_nvprof_trace(t, p);
    case Layout::NvprofSummary: return read_nvprof_summary(t, p);
    case Layout::NsysGpuTrace:
    case Layout::NsysKernExec: return read_nsys_trace(t, p);
    case Layout::NsysKernSum: return read_nsys_kern_sum(t, p);
    case Layout::AccelsimCsv: return read_accelsim_csv(t, p);
    case Layout::Plain: return read_plain(t, p);
    case Layout::Wide: return read_wide(t, p);
    case Layout::NsysSqlite:
    case Layout::AccelsimLog:
    case Layout::AccelsimStats: break;
  }
  fail("profile layout " + std::string(layout_name(layout)) + " is not a CSV layout");
}

// A config names a column of get_stats.py's CSV; nothing else has one.
void check_config_used(const Profile& p, const ReadOptions& options) {
  if (!options.config.empty() && p.layout != Layout::AccelsimStats)
    fail_usage("a config ('" + options.config + "') was chosen, but " + p.source + " is " + layout_name(p.layout) +
               ", not Accel-Sim's get_stats.py CSV");
}

bool looks_like_accelsim_log(std::string_view text) {
  for (std::string_view stat : {"gpu_sim_cycle = ", "gpu_tot_sim_cycle = "})
    if (text.starts_with(stat) || text.find("\n" + std::string(stat)) != std::string_view::npos) return true;
  return false;
}

}  // namespace

std::string lower_trimmed(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

const char* layout_name(Layout layout) { return kLayoutNames[static_cast<size_t>(layout)]; }

uint32_t ColumnNames::id(std::string_view name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  return id;
}

std::optional<uint32_t> ColumnNames::find(std::string_view name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

void Values::set(std::string_view name, std::string_view text) {
  if (!names_) names_ = std::make_shared<ColumnNames>();
  set(names_->id(name), text);
}

void Values::set(uint32_t id, std::string_view text) {
  text_.append(text);
  ends_.emplace_back(id, static_cast<uint32_t>(text_.size()));
}

std::optional<std::string_view> Values::get(std::string_view name) const {
  const auto id = names_ ? names_->find(name) : std::nullopt;
  if (!id) return std::nullopt;
  for (size_t i = ends_.size(); i-- > 0;)
    if (ends_[i].first == *id) {
      const uint32_t begin = i == 0 ? 0 : ends_[i - 1].second;
      return std::string_view(text_).substr(begin, ends_[i].second - begin);
    }
  return std::nullopt;
}

std::vector<std::pair<std::string_view, std::string_view>> Values::items() const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  uint32_t begin = 0;
  for (auto [id, end] : ends_) {
    out.emplace_back(names_->name(id), std::string_view(text_).substr(begin, end - begin));
    begin = end;
  }
  return out;
}

Kernel Profile::new_kernel() const {
  Kernel k;
  k.values = Values(columns);
  k.units = Values(columns);
  return k;
}

uint64_t Profile::launch_count() const {
  uint64_t n = 0;
  for (const Kernel& k : kernels) n += k.launches;
  return n;
}

double Profile::total_time_ns() const {
  double t = 0;
  for (const Kernel& k : kernels) t += k.time_ns.value_or(0);
  return t;
}

std::optional<double> parse_number(std::string_view text) {
  std::string clean;
  for (char c : text)
    if (c != ',' && c != ' ' && c != '%') clean.push_back(c);
  if (clean.empty()) return std::nullopt;
  double v = 0;
  auto [end, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), v);
  if (ec != std::errc() || end != clean.data() + clean.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

double number_at(const std::string& file, uint64_t line, std::string_view what, std::string_view text) {
  auto v = parse_number(text);
  if (!v) fail_input(file, line, std::string(what) + " " + quoted_input(text) + " is not a number");
  return *v;
}

uint64_t count_at(const std::string& file, uint64_t line, std::string_view what, std::string_view text) {
  constexpr double kLargestExact = 9007199254740992.0;  // 2^53
  double v = number_at(file, line, what, text);
  if (v < 0 || v > kLargestExact || v != std::floor(v))
    fail_input(file, line, std::string(what) + " " + quoted_input(text) + " is not a count (a whole number, 0 to 2^53)");
  return static_cast<uint64_t>(v);
}

std::optional<double> ns_per_unit(std::string_view unit) {
  static const std::pair<std::string_view, double> kUnits[] = {
      {"ns", 1},         {"nsecond", 1},      {"us", 1e3}, {"usecond", 1e3},
      {"ms", 1e6},       {"msecond", 1e6},    {"s", 1e9},  {"second", 1e9}};
  for (auto [u, scale] : kUnits)
    if (u == unit) return scale;
  return std::nullopt;
}

double time_in_ns(const Table& t, uint64_t line, const std::string& column, std::string_view unit,
                  std::string_view text) {
  auto scale = ns_per_unit(unit);
  if (!scale)
    fail_input(t.file, line,
               column + " is in " + quoted_input(unit) + ", expected a time unit (ns, us, ms, s or nsecond, usecond, "
                                                         "msecond, second)");
  double v = number_at(t.file, line, column, text);
  if (v < 0) fail_input(t.file, line, column + " " + quoted_input(text) + " is negative");
  return v * *scale;
}

int Table::column(std::string_view name) const {
  for (size_t c = 0; c < header.size(); ++c)
    if (header[c] == name) return static_cast<int>(c);
  return -1;
}

int Table::first_column(std::initializer_list<std::string_view> names) const {
  for (std::string_view n : names)
    if (int c = column(n); c >= 0) return c;
  return -1;
}

int Table::need(std::string_view name) const {
  int c = column(name);
  if (c < 0) fail_input(file, header_line, "no " + quoted_input(name) + " column");
  return c;
}

std::vector<std::string> Table::take_units_row(int probe) {
  if (rows.empty() || probe < 0) return {};
  Row first = rows.front();
  if (parse_number(first.fields[probe])) return {};
  rows.pop_front();
  return std::move(first.fields);
}

void Rows::split(size_t i, Row& row) const {
  row.line = lines_[i].number;
  const std::string& file = table_->file;
  if (!split_csv_line(lines_[i].text, row.fields)) fail_input(file, row.line, "unterminated quoted field");
  const size_t want = table_->header.size();
  if (row.fields.size() != want && !(ragged_ && row.fields.size() < want))
    fail_input(file, row.line,
               std::to_string(row.fields.size()) + " fields, expected " + std::to_string(want) +
                   " as in the header on line " + std::to_string(table_->header_line));
}

Row Rows::front() const {
  Row row;
  split(first_, row);
  return row;
}

const Row& Rows::iterator::operator*() {
  rows_->split(i_, row_);
  return row_;
}

void Table::keep_values(const Row& row, Kernel& kernel) {
  ColumnNames* names = kernel.values.names();
  if (!names) fail("profile kernel without column names");  // a reader that did not use new_kernel()
  if (header_ids.empty())
    for (const std::string& h : header) header_ids.push_back(names->id(h));
  for (size_t c = 0; c < header.size() && c < row.fields.size(); ++c)
    if (!blank(row.fields[c])) kernel.values.set(header_ids[c], row.fields[c]);
}

namespace {

// The layouts after the Accel-Sim log: get_stats.py CSV, a profiler CSV
// found under text, or a hand-made CSV.
void read_csv_profile(const std::vector<Line>& content, const ReadOptions& options, Profile& p) {
  const std::string& name = p.source;
  if (auto first = accelsim_stats_start(content)) {
    p.layout = Layout::AccelsimStats;
    return read_accelsim_stats(content, *first, options.config, p);
  }
  std::vector<std::string> fields;
  for (size_t i = 0; i < content.size(); ++i) {
    if (!split_csv_line(content[i].text, fields)) continue;
    if (auto layout = profiler_layout(fields)) {
      p.layout = *layout;
      Table t;
      make_table(t, name, content, i, false);
      return read_table(*layout, t, p);
    }
  }
  split_csv_line(content[0].text, fields);
  std::vector<std::string> next;
  if (content.size() > 1) split_csv_line(content[1].text, next);
  auto layout = hand_made_layout(fields, content.size() > 1 ? &next : nullptr);
  if (!layout) unknown_layout(name, content[0]);
  p.layout = *layout;
  Table t;
  make_table(t, name, content, 0, *layout == Layout::Wide);
  read_table(*layout, t, p);
}

}  // namespace

Profile read_profile(std::istream& in, const std::string& name, const ReadOptions& options) {
  const std::string text = read_all(in);
  // An sqlite export is read by path (load_profile): a stream of its bytes
  // (stdin, a pipe) is no text profile.
  if (std::string_view(text).starts_with(std::string_view("SQLite format 3\0", 16)))
    fail_input(name, "an nsys sqlite export is read from a named file, not from stdin or a pipe");
  Profile p;
  p.source = name;
  if (looks_like_accelsim_log(text)) {
    p.layout = Layout::AccelsimLog;
    read_accelsim_log(all_lines(text), p);
    check_config_used(p, options);
    return p;
  }
  const std::vector<Line> content = content_lines(text);
  if (content.empty()) fail_input(name, "empty profile: no CSV header found");
  read_csv_profile(content, options, p);
  check_config_used(p, options);
  return p;
}

Profile load_profile(const std::string& path, const ReadOptions& options) {
  if (path != "-" && is_sqlite_file(path)) {
    Profile p = read_nsys_sqlite(path);
    check_config_used(p, options);
    return p;
  }
  Input in(path);
  Profile p = read_profile(in.stream(), in.name(), options);
  in.check_read_error();
  return p;
}

}  // namespace sasskit::profile
