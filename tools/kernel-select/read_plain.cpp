// The two hand-made layouts. Plain: "id,name,duration" then optional numeric
// columns; "insts", "ctas" and "warps" fill those columns, the rest are
// features. Wide: one column per kernel name, values down the column, ragged
// (as the STEM artifact's runtime-example.csv); launch order across columns
// is unknown, so ids run column after column.
#include <algorithm>
#include <cctype>

#include "libcommon/diag.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

std::string lower_trimmed(std::string s) {
  s.erase(0, s.find_first_not_of(' '));
  s.erase(s.find_last_not_of(' ') + 1);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool looks_numeric(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789.eE+- ") == std::string::npos;
}

[[noreturn]] void unknown_layout(const CsvInput& csv, const std::vector<std::string>& header) {
  fail_input(csv.name(), 1,
             "unknown CSV layout; columns found: " + join_columns(header) +
                 " (expected nsys stats, ncu --csv, 'id,name,duration[,...]' or one column per "
                 "kernel name)");
}

}  // namespace

bool is_plain_header(const std::vector<std::string>& h) {
  return h.size() >= 3 && lower_trimmed(h[0]) == "id" && lower_trimmed(h[1]) == "name" &&
         lower_trimmed(h[2]) == "duration";
}

void read_plain(CsvInput& csv, const std::vector<std::string>& header, Profile& p) {
  enum Extra { Insts, Ctas, Warps, Feature };
  std::vector<Extra> extra;
  for (size_t c = 3; c < header.size(); ++c) {
    std::string h = lower_trimmed(header[c]);
    extra.push_back(h == "insts" ? Insts : h == "ctas" ? Ctas : h == "warps" ? Warps : Feature);
    if (extra.back() == Feature) p.feature_names.push_back(header[c]);
  }
  while (csv.next()) {
    const auto& f = csv.fields();
    if (f.size() != header.size())
      fail_input(csv.where(), "expected " + std::to_string(header.size()) + " fields, found " +
                                  std::to_string(f.size()));
    p.add(static_cast<uint64_t>(csv.number(f[0], "id")), f[1], csv.number(f[2], "duration"));
    for (size_t c = 3; c < f.size(); ++c) {
      double v = csv.number(f[c], header[c]);
      switch (extra[c - 3]) {
        case Insts: p.insts.push_back(v); break;
        case Ctas: p.ctas.push_back(static_cast<uint64_t>(v)); break;
        case Warps: p.warps.push_back(static_cast<uint64_t>(v)); break;
        case Feature: p.features.push_back(v); break;
      }
    }
  }
}

void read_wide(CsvInput& csv, const std::vector<std::string>& header, Profile& p) {
  for (const auto& h : header)
    if (h.empty() || looks_numeric(h)) unknown_layout(csv, header);
  std::vector<std::vector<double>> columns(header.size());
  bool first = true;
  while (csv.next()) {
    const auto& f = csv.fields();
    if (first && !std::all_of(f.begin(), f.end(),
                              [](const std::string& s) { return s.empty() || looks_numeric(s); }))
      unknown_layout(csv, header);
    first = false;
    if (f.size() > header.size())
      fail_input(csv.where(), "expected at most " + std::to_string(header.size()) +
                                  " fields, found " + std::to_string(f.size()));
    for (size_t c = 0; c < f.size(); ++c)
      if (!f[c].empty()) columns[c].push_back(csv.number(f[c], "duration of " + header[c]));
  }
  for (size_t c = 0; c < header.size(); ++c)
    for (double d : columns[c]) p.add(p.size() + 1, header[c], d);
}

}  // namespace sasskit::kselect
