// A record's fields said once (issue 58): per field its msgpack key, the
// member that holds it, whether a reader needs it, the column whose length
// it follows and the check its values pass. pack_fields, read_fields and
// check_fields walk a record's table, so a new field is a member and one line
// of the table (and a row in formats/STREAM.md).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/trace.hpp"

namespace sasskit::stream {

enum class Need : uint8_t {
  Required,  // written always; a record without it is refused
  Since,     // written always; absent (a record of an older version) reads as empty: 0, "", {}
  IfSet,     // written only when set: an optional with a value, a non-empty string or column
};

// How the values of two parts (two SMs' counters) combine.
enum class Merge : uint8_t { Sum, Max };

enum class Check : uint8_t {
  None,
  Rate,  // every value in [0, 1]; NaN is refused, nothing is clamped
};

// The member types a field may have.
template <class R>
using MemberOf = std::variant<bool R::*, uint32_t R::*, uint64_t R::*, double R::*, std::string R::*, Dim3 R::*,
                              std::optional<uint32_t> R::*, std::optional<uint64_t> R::*,
                              std::optional<double> R::*, std::vector<uint32_t> R::*, std::vector<uint64_t> R::*,
                              std::vector<double> R::*, std::vector<std::string> R::*,
                              std::map<std::string, double> R::*>;

template <class R>
struct Field {
  std::string_view key;
  MemberOf<R> member;
  Need need = Need::Required;
  Check check = Check::None;
  // A column: the key of an earlier column of the table whose length it has
  // where both are present.
  std::string_view rows = {};
  Merge merge = Merge::Sum;  // of a counter that parts add up to (the stats record's)
};

// A Dim3 as a pack_map_of entry's value: [x, y, z].
inline auto dim_of(const Dim3& d) {
  return [&d](Packer& pk) {
    pk.pack_array(3);
    pk.pack(d.x);
    pk.pack(d.y);
    pk.pack(d.z);
  };
}

inline Dim3 read_dim(const MapView& m, std::string_view key) {
  const auto v = m.get<std::vector<uint32_t>>(key);
  if (v.size() != 3) fail_input(m.where(), "field '" + std::string(key) + "' needs 3 values");
  return Dim3{v[0], v[1], v[2]};
}

namespace detail {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
bool is_set(const T& v) {
  if constexpr (IsOptional<T>::value) return v.has_value();
  else if constexpr (requires { v.empty(); }) return !v.empty();
  else return true;
}

template <class Map, class T>
void pack_entry(Map& map, std::string_view key, const T& v) {
  if constexpr (IsOptional<T>::value) {
    map(key, *v);
  } else if constexpr (std::is_same_v<T, Dim3>) {
    map.with(key, dim_of(v));
  } else {
    map(key, v);
  }
}

template <class T>
void read_entry(const MapView& m, std::string_view key, Need need, T& v) {
  if constexpr (IsOptional<T>::value) {
    if (m.has(key)) v = m.get<typename T::value_type>(key);
  } else if constexpr (std::is_same_v<T, Dim3>) {
    v = read_dim(m, key);
  } else {
    v = need == Need::Required ? m.get<T>(key) : m.get_or<T>(key, T{});
  }
}

template <class T>
std::optional<size_t> size_of(const T& v) {
  if constexpr (requires { v.size(); } && !std::is_same_v<T, std::string>) return v.size();
  else return std::nullopt;
}

template <class R>
size_t rows_of(const R& rec, std::span<const Field<R>> fields, std::string_view key) {
  for (const Field<R>& f : fields)
    if (f.key == key) return *std::visit([&](auto member) { return size_of(rec.*member); }, f.member);
  throw Error(ExitCode::Internal, "field table", "no column '" + std::string(key) + "'");
}

void check_rates(const std::string& where, std::string_view key, std::span<const double> rates);

}  // namespace detail

// The table's entries of `rec`, for pack_map_of, in the table's order.
template <class Map, class R>
void pack_fields(Map& map, const R& rec, std::span<const Field<std::type_identity_t<R>>> fields) {
  for (const Field<R>& f : fields)
    std::visit(
        [&](auto member) {
          const auto& v = rec.*member;
          if ((f.need == Need::IfSet || detail::IsOptional<std::decay_t<decltype(v)>>::value) && !detail::is_set(v))
            return;
          detail::pack_entry(map, f.key, v);
        },
        f.member);
}

// Reads the table's fields of `m` into `rec` in the table's order, refusing
// a missing required field, a value of the wrong type and a column whose
// length is not its rows' ("`record` column 'K' has N entries, 'R' has M").
template <class R>
void read_fields(const MapView& m, R& rec, std::span<const Field<std::type_identity_t<R>>> fields,
                 std::string_view record) {
  for (const Field<R>& f : fields) {
    const std::optional<size_t> size = std::visit(
        [&](auto member) {
          detail::read_entry(m, f.key, f.need, rec.*member);
          return detail::size_of(rec.*member);
        },
        f.member);
    if (f.rows.empty() || !m.has(f.key)) continue;
    const size_t rows = detail::rows_of(rec, fields, f.rows);
    if (*size != rows)
      fail_input(m.where(), std::string(record) + " column '" + std::string(f.key) + "' has " +
                                std::to_string(*size) + " entries, '" + std::string(f.rows) + "' has " +
                                std::to_string(rows));
  }
}

// The checks of the table's fields (Check), in the table's order.
template <class R>
void check_fields(const std::string& where, const R& rec, std::span<const Field<std::type_identity_t<R>>> fields) {
  for (const Field<R>& f : fields) {
    if (f.check != Check::Rate) continue;
    if (const auto* one = std::get_if<double R::*>(&f.member))
      detail::check_rates(where, f.key, std::span<const double>(&(rec.**one), 1));
    else
      detail::check_rates(where, f.key, rec.*std::get<std::vector<double> R::*>(f.member));
  }
}

}  // namespace sasskit::stream
