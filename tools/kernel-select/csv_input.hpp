// Line-by-line CSV reading with the line numbers and number parsing that
// every profile reader's messages need.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace sasskit::kselect {

class CsvInput {
 public:
  CsvInput(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  // Reads the next non-blank line into fields(); false at end of input.
  bool next();
  const std::vector<std::string>& fields() const { return fields_; }
  uint64_t line() const { return line_; }
  const std::string& name() const { return name_; }
  std::string where() const;

  // Column index of `column` in `header`, or -1.
  static int find(const std::vector<std::string>& header, const std::string& column);
  // A duration, count or metric: finite and >= 0. `thousands` accepts
  // "1,234" as profilers print it. Errors name the line and column.
  double number(const std::string& text, const std::string& column, bool thousands = false) const;

 private:
  std::istream& in_;
  std::string name_;
  std::string text_;
  std::vector<std::string> fields_;
  uint64_t line_ = 0;
};

// "a, b, c" for messages about the columns found.
std::string join_columns(const std::vector<std::string>& header);

}  // namespace sasskit::kselect
