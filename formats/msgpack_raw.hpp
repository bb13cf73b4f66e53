// Reading a few top-level fields of an encoded msgpack map without building
// a msgpack object for it: how a record's type, kernel id and CTA index are
// learned when the rest of the record is only passed through.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sasskit::stream {

// The encoded value of `key` in the msgpack map `bytes` (its first object),
// or nullopt when the map has no such key. BadInput at `where` when `bytes`
// does not start with a map or a key cannot be walked.
std::optional<std::string_view> raw_field(std::string_view bytes, std::string_view key,
                                          const std::string& where);

// Bytes of the msgpack object at the start of `bytes` where it lies there
// whole and holds only scalars, strs, bins, arrays and maps, nested at most
// `max_depth` (at most 64) deep; nullopt otherwise: cut short, an ext or the
// unused tag inside, or nested deeper. Where this gives a size, msgpack's
// parser gives the same; the rest is left to it to tell apart.
std::optional<size_t> plain_object_size(std::string_view bytes, size_t max_depth);

// raw_field for several keys in one walk of the map: values[i] is keys[i]'s
// (the first entry of that key), or nullopt. The walk stops once every key
// is found.
void raw_fields(std::string_view bytes, std::span<const std::string_view> keys,
                std::span<std::optional<std::string_view>> values, const std::string& where);

// The top-level entries of a small map, found by the walk that sizes it,
// so that its fields are then looked up without another walk. Offsets are
// into the map's bytes.
class TopFields {
 public:
  static constexpr size_t kMostEntries = 8;
  // Whether every entry of the map is here (a map of at most kMostEntries
  // entries, sized by plain_map_size); otherwise nothing is.
  bool complete() const { return complete_; }
  // raw_fields' answer for the map `bytes` these entries were found in.
  void find(std::string_view bytes, std::span<const std::string_view> keys,
            std::span<std::optional<std::string_view>> values) const;

 private:
  friend std::optional<size_t> plain_map_size(std::string_view bytes, size_t max_depth, TopFields& fields);
  struct Entry {
    uint32_t key_at = 0, key_size = 0;  // the key's str body; key_at 0: a key of another kind
    uint32_t value_at = 0, value_size = 0;
  };
  std::array<Entry, kMostEntries> entries_;
  uint8_t count_ = 0;
  bool complete_ = false;
};

// plain_object_size, and where the object is a map of at most
// TopFields::kMostEntries entries (and at most 4 GiB), its entries in
// `fields`; `fields` is left incomplete otherwise.
std::optional<size_t> plain_map_size(std::string_view bytes, size_t max_depth, TopFields& fields);

// Whether `bytes` starts with a msgpack map.
bool is_raw_map(std::string_view bytes);

// An encoded non-negative integer's value; nullopt for any other object.
std::optional<uint64_t> raw_uint(std::string_view value);
// An encoded string's body; nullopt for any other object.
std::optional<std::string_view> raw_str(std::string_view value);
// An encoded bin's body; nullopt for any other object.
std::optional<std::string_view> raw_bin(std::string_view value);
// An encoded array of three non-negative integers; nullopt otherwise.
std::optional<std::array<uint64_t, 3>> raw_uint3(std::string_view value);

}  // namespace sasskit::stream
