// Finding the CSV in a text export and recognising its layout from its
// header; shared number and unit parsing.
#include "formats/profile.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

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

[[noreturn]] void unknown_layout(const std::string& name, const Record& first) {
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

// The header `header` and the `count` records from line `after` on; rows
// of the wide layout may be shorter than the header.
void make_table(Table& t, const std::string& name, const Text& text, const Record& header, size_t after, size_t count,
                bool ragged) {
  t.file = name;
  t.header_line = header.number;
  split_csv_line(header.text, t.header);
  t.rows = Rows(t, &text, after, count, ragged);
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

namespace {
constexpr size_t kEntryHead = 2 * sizeof(uint32_t);  // name id, text length
}  // namespace

void Values::set(uint32_t id, std::string_view text) {
  if (text.size() > UINT32_MAX) fail("profile value over 4 GiB");
  const uint32_t head[2] = {id, static_cast<uint32_t>(text.size())};
  packed_.append(reinterpret_cast<const char*>(head), kEntryHead);
  packed_.append(text);
}

template <class F>
void Values::each(F&& body) const {
  for (size_t at = 0; at < packed_.size();) {
    uint32_t head[2];
    std::memcpy(head, packed_.data() + at, kEntryHead);
    body(head[0], std::string_view(packed_).substr(at + kEntryHead, head[1]));
    at += kEntryHead + head[1];
  }
}

std::optional<std::string_view> Values::get(std::string_view name) const {
  const auto id = names_ ? names_->find(name) : std::nullopt;
  if (!id) return std::nullopt;
  std::optional<std::string_view> found;
  each([&](uint32_t i, std::string_view text) {
    if (i == *id) found = text;  // a later value of the name wins
  });
  return found;
}

std::vector<std::pair<std::string_view, std::string_view>> Values::items() const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  each([&](uint32_t id, std::string_view text) { out.emplace_back(names_->name(id), text); });
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

void Rows::split(const Record& record, Row& row) const {
  row.line = record.number;
  const std::string& file = table_->file;
  if (!split_csv_line(record.text, row.fields)) fail_input(file, row.line, "unterminated quoted field");
  const size_t want = table_->header.size();
  if (row.fields.size() != want && !(ragged_ && row.fields.size() < want))
    fail_input(file, row.line,
               std::to_string(row.fields.size()) + " fields, expected " + std::to_string(want) +
                   " as in the header on line " + std::to_string(table_->header_line));
}

Row Rows::front() const {
  Records records(text_, first_);
  Record record;
  if (!records.next(record)) fail("profile table holds fewer rows than counted");
  Row row;
  split(record, row);
  return row;
}

void Rows::pop_front() {
  Records records(text_, first_);
  Record record;
  if (!records.next(record)) fail("profile table holds fewer rows than counted");
  first_ = records.line();
  --count_;
}

Rows::iterator::iterator(const Rows* rows, size_t left) : rows_(rows), left_(left), records_(rows->text_, rows->first_) {
  if (left_ > 0) load();
}

Rows::iterator& Rows::iterator::operator++() {
  if (--left_ > 0) load();
  return *this;
}

void Rows::iterator::load() {
  if (!records_.next(record_)) fail("profile table holds fewer rows than counted");
  rows_->split(record_, row_);
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

// What the layout is recognised by, from one pass over the records.
struct Scan {
  size_t records = 0;
  uint64_t last = 0;         // number of the last record
  Record first, second;      // the first two records
  size_t after_first = 0;    // the line after the first record
  std::optional<size_t> stats_start;  // line of the first get_stats.py separator
  std::optional<size_t> header;       // index (among records) of the first profiler header
  Record header_record;
  size_t after_header = 0;
  Layout header_layout = Layout::Plain;
};

Scan scan_records(const Text& text) {
  Scan s;
  Records records(&text);
  Record r;
  std::vector<std::string> fields;
  for (; records.next(r); ++s.records) {
    s.last = r.number;
    if (s.records == 0) {
      s.first = r;
      s.after_first = records.line();
    } else if (s.records == 1) {
      s.second = r;
    }
    if (s.stats_start || !split_csv_line(r.text, fields)) continue;  // a separator decides the layout
    if (is_stats_separator(fields)) s.stats_start = r.number - 1;
    if (s.header) continue;
    if (auto layout = profiler_layout(fields)) {
      s.header = s.records;
      s.header_layout = *layout;
      s.header_record = r;
      s.after_header = records.line();
    }
  }
  return s;
}

// The layouts after the Accel-Sim log: get_stats.py CSV, a profiler CSV
// found under text, or a hand-made CSV.
void read_csv_profile(const Text& text, const ReadOptions& options, Profile& p) {
  const std::string& name = p.source;
  const Scan s = scan_records(text);
  if (s.records == 0) fail_input(name, "empty profile: no CSV header found");
  if (s.stats_start) {
    p.layout = Layout::AccelsimStats;
    return read_accelsim_stats(text, *s.stats_start, s.last, options.config, p);
  }
  if (s.header) {
    p.layout = s.header_layout;
    Table t;
    make_table(t, name, text, s.header_record, s.after_header, s.records - *s.header - 1, false);
    return read_table(p.layout, t, p);
  }
  std::vector<std::string> fields, next;
  split_csv_line(s.first.text, fields);
  if (s.records > 1) split_csv_line(s.second.text, next);
  auto layout = hand_made_layout(fields, s.records > 1 ? &next : nullptr);
  if (!layout) unknown_layout(name, s.first);
  p.layout = *layout;
  Table t;
  make_table(t, name, text, s.first, s.after_first, s.records - 1, *layout == Layout::Wide);
  read_table(*layout, t, p);
}

}  // namespace

Text::Text(std::istream& in) {
  std::array<char, 1 << 16> chunk;
  std::string partial;  // a line that goes on in the next chunk
  for (bool first = true; in.read(chunk.data(), chunk.size()) || in.gcount() > 0; first = false) {
    std::string_view data(chunk.data(), size_t(in.gcount()));
    // An sqlite export is read by path (load_profile): its bytes are no text profile.
    if (first && data.starts_with(std::string_view("SQLite format 3\0", 16))) {
      sqlite_ = true;
      return;
    }
    for (size_t end; (end = data.find('\n')) != std::string_view::npos; data.remove_prefix(end + 1)) {
      if (partial.empty()) {
        add(data.substr(0, end));
      } else {
        partial.append(data.substr(0, end));
        add(partial);
        partial.clear();
      }
    }
    partial.append(data);
  }
  if (!partial.empty()) add(partial);
  lines_.flush();
}

void Text::add(std::string_view line) {
  for (std::string_view stat : {"gpu_sim_cycle = ", "gpu_tot_sim_cycle = "})
    if (line.starts_with(stat)) accelsim_log_ = true;
  lines_.append(line);
}

bool Records::next(Record& r) {
  while (at_ < text_->lines()) {
    const size_t first = at_++;
    text_->line(first, r.text);
    if (first == 0) r.text.erase(0, r.text.size() - strip_bom(r.text).size());
    if (blank(r.text) || tool_note(r.text)) continue;
    r.number = first + 1;
    for (bool open = csv_quote_open_after(r.text, false); open && at_ < text_->lines();) {
      text_->line(at_++, more_);
      open = csv_quote_open_after(more_, true);
      r.text.push_back('\n');
      r.text.append(more_);
    }
    return true;
  }
  return false;
}

Profile read_profile(std::istream& in, const std::string& name, const ReadOptions& options) {
  const Text text(in);
  if (text.sqlite()) fail_input(name, "an nsys sqlite export is read from a named file, not from stdin or a pipe");
  Profile p;
  p.source = name;
  if (text.accelsim_log()) {
    p.layout = Layout::AccelsimLog;
    read_accelsim_log(text, p);
  } else {
    read_csv_profile(text, options, p);
  }
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
