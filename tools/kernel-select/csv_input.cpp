#include "csv_input.hpp"

#include <charconv>
#include <cmath>

#include "formats/csv.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::kselect {

bool CsvInput::next() {
  while (std::getline(in_, text_)) {
    ++line_;
    std::string_view line = line_ == 1 ? strip_bom(text_) : std::string_view(text_);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (!split_csv_line(line, fields_)) fail_input(name_, line_, "unterminated quoted field");
    return true;
  }
  return false;
}

std::string CsvInput::where() const { return location(name_, line_); }

int CsvInput::find(const std::vector<std::string>& header, const std::string& column) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == column) return static_cast<int>(i);
  return -1;
}

double CsvInput::number(const std::string& text, const std::string& column, bool thousands) const {
  std::string digits;
  std::string_view s = text;
  if (thousands && s.find(',') != std::string_view::npos) {
    for (char c : s)
      if (c != ',') digits.push_back(c);
    s = digits;
  }
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    fail_input(name_, line_, column + " '" + text + "' is not a number");
  if (v < 0) fail_input(name_, line_, column + " " + text + " is negative");
  return v;
}

std::string join_columns(const std::vector<std::string>& header) {
  std::string out;
  for (const auto& h : header) {
    if (!out.empty()) out.append(", ");
    out.append(h);
  }
  return out;
}

}  // namespace sasskit::kselect
