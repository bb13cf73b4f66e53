// Writing msgpack maps field by field, shared by the record codecs.
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

#include "formats/stream.hpp"

namespace sasskit::stream {

inline void pack_key(Packer& pk, std::string_view key) {
  pk.pack_str(static_cast<uint32_t>(key.size()));
  pk.pack_str_body(key.data(), static_cast<uint32_t>(key.size()));
}

template <class T>
void pack_field(Packer& pk, std::string_view key, const T& value) {
  pack_key(pk, key);
  pk.pack(value);
}

// The "t" entry every record map starts with.
inline void pack_type(Packer& pk, std::string_view type) {
  pack_key(pk, "t");
  pack_key(pk, type);
}

namespace detail {

// The two passes of pack_map_of: one counts the entries, one packs them.
class MapEntryCounter {
 public:
  template <class T>
  void operator()(std::string_view, const T&) { ++entries; }
  template <class F>
  void with(std::string_view, F&&) { ++entries; }
  void type(RecordType) { ++entries; }
  uint32_t entries = 0;
};

class MapEntryPacker {
 public:
  explicit MapEntryPacker(Packer& pk) : pk_(pk) {}
  template <class T>
  void operator()(std::string_view key, const T& value) { pack_field(pk_, key, value); }
  // An entry whose value `pack_value(Packer&)` writes itself.
  template <class F>
  void with(std::string_view key, F&& pack_value) {
    pack_key(pk_, key);
    pack_value(pk_);
  }
  void type(RecordType type) { pack_type(pk_, record_type_name(type)); }

 private:
  Packer& pk_;
};

}  // namespace detail

// A column, `field(row)` for each of `rows` (a container or array), as a
// pack_map_of entry's value: `map.with(key, column_of(rows, field))`. It
// refers to `rows`, so it is for use within the expression that makes it.
template <class Rows, class F>
auto column_of(const Rows& rows, F field) {
  return [&rows, field](Packer& pk) {
    pk.pack_array(static_cast<uint32_t>(std::size(rows)));
    for (const auto& row : rows) pk.pack(field(row));
  };
}

// A map whose size is counted, never written by hand: `entries(map)` is
// called twice, first to count and then to pack, with `map(key, value)`,
// `map.with(key, pack_value)` and `map.type(type)`. An optional entry is
// one `if` in one place; `entries` must give the same entries both times.
template <class Entries>
void pack_map_of(Packer& pk, Entries&& entries) {
  detail::MapEntryCounter counter;
  entries(counter);
  pk.pack_map(counter.entries);
  detail::MapEntryPacker packer(pk);
  entries(packer);
}

}  // namespace sasskit::stream
