#include "formats/cta_log.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <sstream>
#include <string_view>

#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit {
namespace {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string_view strip_comment(std::string_view s) { return trim(s.substr(0, s.find('#'))); }

template <class T>
bool parse_number(std::string_view s, T& out, int base = 10) {
  s = trim(s);
  if (base == 16 && (s.starts_with("0x") || s.starts_with("0X"))) s.remove_prefix(2);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (size_t at = 0;;) {
    size_t next = s.find(sep, at);
    parts.push_back(s.substr(at, next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

// "(kernel,cta,hex-timestamp)" tuples after "count,sm," on an issue.config SM line.
void parse_sm_line(std::string_view rest, uint32_t sm, uint64_t line, const std::string& name,
                   std::vector<CtaLogEntry>& out) {
  auto bad = [&](const std::string& what) { fail_input(name, line, what); };
  size_t comma = rest.find(',');
  uint64_t count = 0;
  if (comma == std::string_view::npos || !parse_number(rest.substr(0, comma), count))
    bad("expected 'COUNT,SM,(kernel,cta,timestamp),...'");
  rest.remove_prefix(comma + 1);
  comma = rest.find(',');
  uint32_t listed_sm = 0;
  if (!parse_number(rest.substr(0, comma), listed_sm) || listed_sm != sm)
    bad("the SM id after the count should be " + std::to_string(sm));
  rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  uint64_t found = 0;
  while (!(rest = trim(rest)).empty()) {
    if (rest.front() == ',') {
      rest.remove_prefix(1);
      continue;
    }
    size_t close = rest.find(')');
    if (rest.front() != '(' || close == std::string_view::npos)
      bad("expected '(kernel,cta,timestamp)' at '" + std::string(rest.substr(0, 20)) + "'");
    auto fields = split(rest.substr(1, close - 1), ',');
    CtaLogEntry e{0, 0, sm, 0, line};
    // Older HyFiSS tracers wrote (kernel,cta) without a timestamp.
    const bool timed = fields.size() == 3;
    if ((fields.size() != 2 && !timed) || !parse_number(fields[0], e.kernel_id) ||
        !parse_number(fields[1], e.cta) || (timed && !parse_number(fields[2], e.clock, 16)))
      bad("expected '(kernel,cta,hex-timestamp)', found '(" +
          std::string(rest.substr(1, close - 1)) + ")'");
    out.push_back(e);
    ++found;
    rest.remove_prefix(close + 1);
  }
  if (found != count)
    bad("the line announces " + std::to_string(count) + " CTAs but lists " +
        std::to_string(found));
}

}  // namespace

void CtaLog::add(const CtaLogEntry& e) {
  kernels_[e.kernel_id].push_back(e);
  first_clock_ = std::min(first_clock_, e.clock);
}

CtaLog CtaLog::read(const std::string& path) {
  Input in(path);
  // Through the iterator, not `<< rdbuf()`, which would swallow a read error.
  std::istringstream lines(std::string(std::istreambuf_iterator<char>(in.stream()), {}));
  std::string first;
  while (std::getline(lines, first) && strip_comment(first).empty()) {
  }
  lines.clear();
  lines.seekg(0);
  return strip_comment(first).starts_with("-trace_issued") ? parse_issue_config(lines, in.name())
                                                           : parse_csv(lines, in.name());
}

CtaLog CtaLog::parse_issue_config(std::istream& in, const std::string& name) {
  CtaLog log;
  log.name_ = name;
  const std::string_view sm_key = "-trace_issued_sm_id_";
  std::string text;
  std::vector<CtaLogEntry> entries;
  for (uint64_t line = 1; std::getline(in, text); ++line) {
    std::string_view s = strip_comment(text);
    if (s.empty() || s.starts_with("-trace_issued_sms_num") ||
        s.starts_with("-trace_issued_sms_vector"))
      continue;
    if (!s.starts_with(sm_key))
      fail_input(name, line, "expected a '-trace_issued_...' line, found '" +
                                 std::string(s.substr(0, 40)) + "'");
    s.remove_prefix(sm_key.size());
    size_t space = s.find_first_of(" \t");
    uint32_t sm = 0;
    if (space == std::string_view::npos || !parse_number(s.substr(0, space), sm))
      fail_input(name, line, "expected '-trace_issued_sm_id_N COUNT,N,...'");
    parse_sm_line(trim(s.substr(space)), sm, line, name, entries);
  }
  for (const auto& e : entries) log.add(e);
  return log;
}

CtaLog CtaLog::parse_csv(std::istream& in, const std::string& name) {
  CtaLog log;
  log.name_ = name;
  std::string text;
  bool first = true;
  for (uint64_t line = 1; std::getline(in, text); ++line) {
    std::string_view s = strip_comment(text);
    if (s.empty()) continue;
    auto fields = split(s, ',');
    bool header = first && !fields.empty() && trim(fields[0]) == "kernel";
    first = false;
    if (header) continue;
    CtaLogEntry e{0, 0, 0, 0, line};
    if (fields.size() != 4 || !parse_number(fields[0], e.kernel_id) ||
        !parse_number(fields[1], e.cta) || !parse_number(fields[2], e.sm) ||
        !parse_number(fields[3], e.clock))
      fail_input(name, line, "expected 'kernel,cta,sm,clock' (4 unsigned integers), found '" +
                                 std::string(s.substr(0, 60)) + "'");
    log.add(e);
  }
  return log;
}

KernelSchedule CtaLog::schedule(uint32_t kernel_id, uint32_t num_ctas, unsigned num_sms) const {
  const std::string k = "kernel " + std::to_string(kernel_id);
  auto it = kernels_.find(kernel_id);
  if (it == kernels_.end()) fail_input(name_, "no CTA of " + k + " in the replay log");
  const auto& entries = it->second;
  std::vector<uint64_t> seen_at(num_ctas, 0);
  uint64_t kernel_first = UINT64_MAX;
  for (const auto& e : entries) {
    if (e.cta >= num_ctas)
      fail_input(name_, e.line, k + " has " + std::to_string(num_ctas) + " CTAs; CTA " +
                                    std::to_string(e.cta) + " is beyond its grid");
    if (e.sm >= num_sms)
      fail_input(name_, e.line, k + " CTA " + std::to_string(e.cta) + " ran on SM " +
                                    std::to_string(e.sm) + ", but the GPU model has " +
                                    std::to_string(num_sms) + " SMs (0-" +
                                    std::to_string(num_sms - 1) + ")");
    if (seen_at[e.cta])
      fail_input(name_, e.line, k + " CTA " + std::to_string(e.cta) +
                                    " is logged twice (first at line " +
                                    std::to_string(seen_at[e.cta]) + ")");
    seen_at[e.cta] = e.line;
    kernel_first = std::min(kernel_first, e.clock);
  }
  if (entries.size() < num_ctas) {
    auto missing = std::find(seen_at.begin(), seen_at.end(), 0) - seen_at.begin();
    fail_input(name_, k + ": " + std::to_string(num_ctas - entries.size()) + " of its " +
                          std::to_string(num_ctas) + " CTAs are missing from the log (first: CTA " +
                          std::to_string(missing) + ")");
  }
  KernelSchedule s;
  s.kernel_id = kernel_id;
  s.policy = "replay:" + name_;
  s.launch = kernel_first - first_clock_;
  s.sm.resize(num_ctas);
  s.start.resize(num_ctas);
  for (const auto& e : entries) {
    s.sm[e.cta] = e.sm;
    s.start[e.cta] = e.clock - kernel_first;
  }
  return s;
}

}  // namespace sasskit
