// Accel-Sim's get_stats.py CSV (formats/PROFILES.md, "Accel-Sim"): one
// block per statistic, each a separator line of 100 '-', a line holding the
// statistic (the regular expression of the stats yaml), a header and rows.
// With configs as columns the header is APPS,CFG1,... and each row is
// APP--KERNEL,values; with -R (configs as rows) it is CFG,APP--KERNEL,...
// and each row is CONFIG,values. One config is read; NA is a missing value.
#include <algorithm>
#include <map>

#include "formats/csv.hpp"
#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

namespace {

constexpr size_t kSeparatorDashes = 100;
constexpr std::string_view kAverageColumn = "AVG";  // get_stats.py -A

bool rest_empty(const std::vector<std::string>& f) {
  return std::all_of(f.begin() + 1, f.end(), [](const std::string& s) { return s.empty(); });
}

// "\s+L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]\s*=\s*(.*)" ->
// "L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]": the literal text before the
// first whitespace class, '=' or group, without its escapes.
std::string stat_name(std::string_view regex) {
  if (regex.starts_with("^")) regex.remove_prefix(1);
  while (regex.starts_with("\\s")) regex.remove_prefix(regex.size() > 2 && (regex[2] == '*' || regex[2] == '+') ? 3 : 2);
  std::string name;
  for (size_t i = 0; i < regex.size(); ++i) {
    const char c = regex[i];
    if (c == '=' || c == '(' || c == ' ' || regex.substr(i).starts_with("\\s")) break;
    if (c == '\\' && i + 1 < regex.size()) ++i;
    name.push_back(regex[i]);
  }
  return name;
}

// The statistics get_stats.py prints first: build strings, not kernels.
bool is_build_block(std::string_view stat) { return stat == "Accel-Sim-build" || stat == "GPGPU-Sim-build"; }

struct Cell {
  uint64_t line;
  std::string key;  // APP--KERNEL
  std::string text;
};

class StatsReader {
 public:
  StatsReader(const Text& text, size_t first, uint64_t last, const std::string& config, Profile& p)
      : records_(&text, first), last_(last), config_(config), p_(p) {}

  void read() {
    while (more()) read_block();
    if (p_.kernels.empty()) fail_input(p_.source, "get_stats.py CSV without kernel rows");
    finish_kernels();
  }

 private:
  Records records_;
  Record record_;           // the record taken last, or the one put back
  bool put_back_ = false;   // whether record_ is to be taken again
  uint64_t last_;           // the number of the text's last record
  std::string config_;
  Profile& p_;
  std::map<std::string, size_t, std::less<>> kernel_of_;  // APP--KERNEL -> index in p_.kernels
  std::vector<std::string> configs_;                     // of the first statistic block

  // Whether a record is left, which the next take gets.
  bool more() { return put_back_ || (put_back_ = records_.next(record_)); }
  std::vector<std::string> next_line(std::string_view what) {
    if (!more()) fail_input(p_.source, last_, "get_stats.py CSV ends before its " + std::string(what));
    put_back_ = false;
    std::vector<std::string> f;
    if (!split_csv_line(record_.text, f)) fail_input(p_.source, record_.number, "unterminated quoted field");
    return f;
  }
  uint64_t line() const { return record_.number; }

  void read_block() {
    more();
    put_back_ = false;  // the separator: blocks start at one
    auto name_line = next_line("statistic name");
    if (name_line[0].empty() || !rest_empty(name_line))
      fail_input(p_.source, line(), "expected a statistic name alone on its line");
    const std::string stat = stat_name(name_line[0]);
    if (stat.empty()) fail_input(p_.source, line(), "no statistic name in " + quoted_input(name_line[0]));
    auto header = next_line("header");
    const uint64_t header_line = line();
    std::vector<std::vector<std::string>> rows;
    std::vector<uint64_t> row_lines;
    while (more()) {
      auto f = next_line("rows");
      if (is_stats_separator(f)) {
        put_back_ = true;
        break;
      }
      if (f.size() != header.size())
        fail_input(p_.source, line(), std::to_string(f.size()) + " fields, expected " + std::to_string(header.size()) +
                                          " as in the header on line " + std::to_string(header_line));
      rows.push_back(std::move(f));
      row_lines.push_back(line());
    }
    std::vector<Cell> cells = header[0] == "APPS"  ? by_config_column(header, header_line, rows, row_lines)
                              : header[0] == "CFG" ? by_config_row(header, header_line, rows, row_lines)
                                                   : fail_header(header_line);
    if (is_build_block(stat)) return;
    for (Cell& c : cells) store(stat, std::move(c));
  }

  [[noreturn]] std::vector<Cell> fail_header(uint64_t at) const {
    fail_input(p_.source, at, "expected a get_stats.py header starting with APPS (configs as columns) or CFG (-R)");
  }

  // The config to read among `configs` (AVG left out), checked against the
  // first block's so that every statistic comes from the same config.
  std::string chosen_config(std::vector<std::string> configs, uint64_t at) {
    std::erase(configs, std::string(kAverageColumn));
    if (configs.empty()) fail_input(p_.source, at, "a statistic without configs");
    std::string all;
    for (const std::string& c : configs) all += (all.empty() ? "" : ", ") + c;
    if (configs_.empty()) configs_ = configs;
    else if (configs != configs_) fail_input(p_.source, at, "configs " + all + " differ from the first statistic's");
    if (config_.empty()) {
      if (configs.size() != 1) fail_input(p_.source, at, "several configs (" + all + "); choose one (kernel-select --profile-config, stall-report --reference-config)");
      return configs[0];
    }
    if (std::find(configs.begin(), configs.end(), config_) == configs.end())
      fail_input(p_.source, at, "no config '" + config_ + "' (configs: " + all + ")");
    return config_;
  }

  std::vector<Cell> by_config_column(const std::vector<std::string>& header, uint64_t at,
                                     const std::vector<std::vector<std::string>>& rows,
                                     const std::vector<uint64_t>& row_lines) {
    const std::string config = chosen_config({header.begin() + 1, header.end()}, at);
    const size_t col = static_cast<size_t>(std::find(header.begin(), header.end(), config) - header.begin());
    std::vector<Cell> cells;
    for (size_t r = 0; r < rows.size(); ++r) cells.push_back({row_lines[r], rows[r][0], rows[r][col]});
    return cells;
  }

  std::vector<Cell> by_config_row(const std::vector<std::string>& header, uint64_t at,
                                  const std::vector<std::vector<std::string>>& rows,
                                  const std::vector<uint64_t>& row_lines) {
    std::vector<std::string> configs;
    for (const auto& r : rows) configs.push_back(r[0]);
    const std::string config = chosen_config(configs, at);
    const size_t r = static_cast<size_t>(std::find(configs.begin(), configs.end(), config) - configs.begin());
    std::vector<Cell> cells;
    for (size_t c = 1; c < header.size(); ++c) cells.push_back({row_lines[r], header[c], rows[r][c]});
    return cells;
  }

  // APP--KERNEL, or APP--KERNEL--N with -K: the kernel is what follows the
  // last "--" (the one before it when the last part is a launch instance).
  std::string kernel_name(const Cell& c) const {
    std::string_view key = c.key;
    size_t cut = key.rfind("--");
    auto instance = [&](size_t at) {
      std::string_view n = key.substr(at + 2);
      return !n.empty() && std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    };
    if (cut != std::string_view::npos && cut > 0 && instance(cut)) {
      const size_t name_cut = key.rfind("--", cut - 1);
      if (name_cut != std::string_view::npos) return std::string(key.substr(name_cut + 2, cut - name_cut - 2));
    }
    if (cut == std::string_view::npos || cut + 2 == key.size())
      fail_input(p_.source, c.line, quoted_input(c.key) + " is not APP--KERNEL");
    return std::string(key.substr(cut + 2));
  }

  // APP of APP--KERNEL[--N].
  static std::string app_of(std::string_view key, const std::string& kernel) {
    return std::string(key.substr(0, key.rfind("--" + kernel)));
  }

  void store(const std::string& stat, Cell c) {
    auto it = kernel_of_.find(c.key);
    if (it == kernel_of_.end()) {
      Kernel k = p_.new_kernel();
      k.line = c.line;
      k.name = kernel_name(c);
      k.values.set("APPS", app_of(c.key, k.name));
      it = kernel_of_.emplace(c.key, p_.kernels.size()).first;
      p_.kernels.push_back(std::move(k));
    }
    Kernel& k = p_.kernels[it->second];
    if (k.values.contains(stat)) fail_input(p_.source, c.line, "a second row for " + quoted_input(c.key) + " in " + stat);
    if (c.text != "NA") k.values.set(stat, c.text);
  }

  void finish_kernels() {
    for (Kernel& k : p_.kernels) {
      set_accelsim_identity(p_.source, k);
      if (auto n = k.values.get("k-count")) k.launches = count_at(p_.source, k.line, "k-count", *n);
    }
    const bool per_kernel = std::any_of(p_.kernels.begin(), p_.kernels.end(),
                                        [](const Kernel& k) { return k.values.contains("gpu_sim_cycle"); });
    p_.cycles_from = per_kernel ? "gpu_sim_cycle" : "gpu_tot_sim_cycle";
  }
};

}  // namespace

bool is_stats_separator(const std::vector<std::string>& f) {
  return !f.empty() && f[0] == std::string(kSeparatorDashes, '-') && rest_empty(f);
}

void read_accelsim_stats(const Text& text, size_t first, uint64_t last, const std::string& config, Profile& p) {
  StatsReader(text, first, last, config, p).read();
}

}  // namespace sasskit::profile
