// Enum-valued options and model keys named from one table: the table gives
// each value its name, in the order the manuals list them, and the parser,
// the printer, the help text and the error message all read it. A new
// policy is one line of its table.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace sasskit {

template <class Enum>
struct Named {
  Enum value;
  std::string_view name;
};

template <class Enum, size_t N>
using NameTable = std::array<Named<Enum>, N>;

inline bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The value named `name` (case-insensitive); nullopt if none is.
template <class Enum, size_t N>
std::optional<Enum> value_named(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& entry : table)
    if (equals_ignoring_case(entry.name, name)) return entry.value;
  return std::nullopt;
}

// `value`'s name; "?" for a value the table lacks.
template <class Enum, size_t N>
std::string_view name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return "?";
}

// The names joined: `separator` between them, `last` before the last one
// ("gto, lrr or two-level" with ", " and " or "; "gto|lrr|two-level").
template <class Enum, size_t N>
std::string names_of(const NameTable<Enum, N>& table, std::string_view separator, std::string_view last) {
  std::string out;
  for (size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? last : separator;
    out += table[i].name;
  }
  return out;
}

template <class Enum, size_t N>
std::string names_of(const NameTable<Enum, N>& table, std::string_view separator) {
  return names_of(table, separator, separator);
}

}  // namespace sasskit
