#include "text_table.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::stallreport {

void TextTable::add(std::vector<std::string> row) {
  for (std::string& cell : row) cell = printable(cell);
  rows_.push_back(std::move(row));
}

void TextTable::print(std::ostream& out, const std::vector<size_t>& left) const {
  std::vector<size_t> width;
  for (const auto& row : rows_) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows_) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string pad(width[c] - row[c].size(), ' ');
      bool left_aligned = c == 0 || std::find(left.begin(), left.end(), c) != left.end();
      if (c) line += "  ";
      line += left_aligned ? row[c] + pad : pad + row[c];
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  }
}

}  // namespace sasskit::stallreport
