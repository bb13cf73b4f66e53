#include "formats/csv.hpp"

namespace sasskit {

bool split_csv_line(std::string_view line, std::vector<std::string>& fields) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t n = 0;
  auto next_field = [&]() -> std::string& {
    if (n == fields.size()) fields.emplace_back();
    fields[n].clear();
    return fields[n++];
  };
  size_t i = 0;
  do {
    std::string& f = next_field();
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) {
          fields.resize(n);
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            f.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        f.push_back(line[i++]);
      }
      size_t comma = line.find(',', i);
      i = comma == std::string_view::npos ? line.size() + 1 : comma + 1;
    } else {
      size_t comma = line.find(',', i);
      size_t end = comma == std::string_view::npos ? line.size() : comma;
      f.assign(line.substr(i, end - i));
      i = end + 1;
    }
  } while (i <= line.size());
  fields.resize(n);
  return true;
}

bool csv_quote_open_after(std::string_view line, bool open) {
  bool field_start = !open;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (open) {
      if (c != '"') continue;
      if (i + 1 < line.size() && line[i + 1] == '"') {
        ++i;  // a doubled quote inside the field
      } else {
        open = false;  // the field is closed; the rest of it up to a comma is skipped
      }
    } else if (c == '"' && field_start) {
      open = true;
      field_start = false;
    } else {
      field_start = c == ',';
    }
  }
  return open;
}

std::string csv_field(std::string_view value) {
  bool quote = value.find_first_of(",\"\n") != std::string_view::npos ||
               (!value.empty() && (value.front() == ' ' || value.back() == ' '));
  if (!quote) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string_view strip_bom(std::string_view line) {
  if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  return line;
}

}  // namespace sasskit
