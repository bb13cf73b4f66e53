// An aligned text table: first column left-aligned, the others right-aligned.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sasskit::stallreport {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
  // Cells are escaped (printable): a name from the input stays in its cell.
  void add(std::vector<std::string> row);
  // Columns in `left` (besides the first) are left-aligned too, e.g. names.
  void print(std::ostream& out, const std::vector<size_t>& left = {}) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace sasskit::stallreport
