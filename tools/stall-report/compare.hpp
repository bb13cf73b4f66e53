// `stall-report A B`: two runs side by side, the design-space-exploration
// view of HyFiSS §VI-E: per kernel (matched by id, else name) and for the
// application, each metric and each stall type's share with its delta.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "columns.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

struct CompareRow {
  std::string metric;
  Kind kind;
  std::optional<double> a, b;
  std::optional<double> delta() const { return a && b ? std::optional<double>(*b - *a) : std::nullopt; }
  // Relative change in percent for counts and ratios; empty for fractions.
  std::optional<double> change() const;
};

struct CompareScope {
  std::optional<uint32_t> id;  // kernel id; empty for the application
  std::string name;
  std::vector<CompareRow> rows;
};

struct Comparison {
  std::string a, b;  // input names
  std::vector<CompareScope> scopes;  // matched kernels, then the application
  std::vector<std::string> unmatched;  // "A: 3 name" style notes
};

// `k`'s match in `r`: the same id and name, else the first of that name.
const KernelReport* find_kernel(const Report& r, const KernelReport& k);

Comparison compare(const Report& a, const Report& b);

void write_compare_text(std::ostream& out, const Comparison& c);
void write_compare_csv(std::ostream& out, const Comparison& c);
void write_compare_json(std::ostream& out, const Comparison& c);

}  // namespace sasskit::stallreport
