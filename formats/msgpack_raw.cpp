#include "formats/msgpack_raw.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <msgpack.hpp>

#include "libcommon/diag.hpp"

namespace sasskit::stream {
namespace {

constexpr size_t kMostPlainDepth = 64;  // plain_object_size's cap

uint64_t big_endian(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

struct MapHeader {
  uint64_t entries = 0;
  size_t size = 0;  // bytes of the header itself
};

std::optional<MapHeader> map_header(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if ((p[0] & 0xf0) == 0x80) return MapHeader{p[0] & 0x0fu, 1};
  if (p[0] == 0xde && bytes.size() >= 3) return MapHeader{big_endian(p + 1, 2), 3};
  if (p[0] == 0xdf && bytes.size() >= 5) return MapHeader{big_endian(p + 1, 4), 5};
  return std::nullopt;
}

// What an object's tag says of its size, for every tag: the whole size
// (scalars, fixstr), the width of a length field that follows (str, bin),
// or the count of objects it holds (array, map: in the tag or in a count
// field that follows); ext and the unused tag are left to msgpack's parser.
struct TagShape {
  enum Kind : uint8_t { kWhole, kLengthed, kContainer, kUnwalked };
  Kind kind = kUnwalked;
  uint8_t field_bytes = 0;  // of the length or count after the tag (0: none)
  uint8_t size = 0;         // kWhole: the object's bytes; kContainer without a field: its count
  uint8_t per_count = 1;    // kContainer: objects per counted entry (a map's key and value)
};

constexpr std::array<TagShape, 256> kTagShapes = [] {
  std::array<TagShape, 256> t{};
  auto whole = [&](unsigned tag, unsigned size) { t[tag] = {TagShape::kWhole, 0, uint8_t(size), 1}; };
  for (unsigned tag = 0; tag < 0x80; ++tag) whole(tag, 1);          // positive fixint
  for (unsigned tag = 0xe0; tag < 0x100; ++tag) whole(tag, 1);      // negative fixint
  for (unsigned tag : {0xc0u, 0xc2u, 0xc3u}) whole(tag, 1);         // nil, false, true
  for (unsigned tag = 0xa0; tag < 0xc0; ++tag) whole(tag, 1 + (tag & 0x1f));  // fixstr
  constexpr unsigned kBody[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8};      // float32, float64, uint8-64, int8-64
  for (unsigned tag = 0xca; tag <= 0xd3; ++tag) whole(tag, 1 + kBody[tag - 0xca]);
  for (unsigned i = 0; i < 3; ++i) {
    t[0xc4 + i] = {TagShape::kLengthed, uint8_t(1u << i), 0, 1};  // bin8 to 32
    t[0xd9 + i] = {TagShape::kLengthed, uint8_t(1u << i), 0, 1};  // str8 to 32
  }
  for (unsigned n = 0; n < 16; ++n) {
    t[0x90 + n] = {TagShape::kContainer, 0, uint8_t(n), 1};  // fixarray
    t[0x80 + n] = {TagShape::kContainer, 0, uint8_t(n), 2};  // fixmap
  }
  t[0xdc] = {TagShape::kContainer, 2, 0, 1};  // array16, array32
  t[0xdd] = {TagShape::kContainer, 4, 0, 1};
  t[0xde] = {TagShape::kContainer, 2, 0, 2};  // map16, map32
  t[0xdf] = {TagShape::kContainer, 4, 0, 2};
  return t;
}();

// Bytes of the scalar, str or bin object at p[0, n) (n > 0) where it lies
// there whole; nullopt for any other object or one cut short.
inline std::optional<size_t> scalar_size(const unsigned char* p, size_t n) {
  const TagShape shape = kTagShapes[p[0]];
  if (shape.kind == TagShape::kWhole) return shape.size <= n ? std::optional<size_t>(shape.size) : std::nullopt;
  if (shape.kind != TagShape::kLengthed || n - 1 < shape.field_bytes) return std::nullopt;
  const uint64_t length = big_endian(p + 1, shape.field_bytes);
  if (length > n - 1 - shape.field_bytes) return std::nullopt;
  return 1 + shape.field_bytes + length;
}

// Bytes of the fixarray of whole-sized scalars (a CTA's [x, y, z]) at
// p[0, n) (n > 0); nullopt for any other object, or one cut short.
inline std::optional<size_t> scalar_fixarray_size(const unsigned char* p, size_t n) {
  if ((p[0] & 0xf0) != 0x90) return std::nullopt;
  size_t at = 1;
  for (unsigned i = p[0] & 0x0fu; i > 0; --i) {
    if (at == n) return std::nullopt;
    const TagShape shape = kTagShapes[p[at]];
    if (shape.kind != TagShape::kWhole || shape.size > n - at) return std::nullopt;
    at += shape.size;
  }
  return at;
}

// plain_object_size, where most keys and values (scalars, strs, bins and
// short arrays of numbers) are sized without the walk's set-up.
std::optional<size_t> plain_size(std::string_view bytes, size_t max_depth) {
  if (bytes.empty()) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (kTagShapes[p[0]].kind != TagShape::kContainer) return scalar_size(p, bytes.size());
  if (max_depth > 0)
    if (const auto array = scalar_fixarray_size(p, bytes.size())) return array;
  return plain_object_size(bytes, max_depth);
}

// Bytes of the msgpack object at `bytes`, walked without building it.
size_t object_size(std::string_view bytes, const std::string& where) {
  if (const auto plain = plain_size(bytes, kMostPlainDepth)) return *plain;
  msgpack::null_visitor v;
  size_t off = 0;
  if (!msgpack::parse(bytes.data(), bytes.size(), off, v)) fail_input(where, "record is cut short");
  return off;
}

// The big-endian body of `n` bytes after `value`'s tag byte, or nullopt if
// `value` is too short.
std::optional<uint64_t> sized_uint(std::string_view value, size_t n) {
  if (value.size() < 1 + n) return std::nullopt;
  return big_endian(reinterpret_cast<const unsigned char*>(value.data()) + 1, n);
}

}  // namespace

std::optional<size_t> plain_object_size(std::string_view bytes, size_t max_depth) {
  std::array<uint64_t, kMostPlainDepth> outer_left;  // per open container, the objects left in the one around it
  max_depth = std::min(max_depth, outer_left.size());
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t depth = 0, at = 0;
  uint64_t left = 1;  // objects still to walk in the innermost open container
  for (;;) {
    while (left == 0) {
      if (depth == 0) return at;
      left = outer_left[--depth];
    }
    if (at == n) return std::nullopt;
    --left;
    const TagShape shape = kTagShapes[p[at]];
    if (shape.kind != TagShape::kContainer) {
      const auto scalar = scalar_size(p + at, n - at);
      if (!scalar) return std::nullopt;
      at += *scalar;
      continue;
    }
    if (depth == max_depth || n - at - 1 < shape.field_bytes) return std::nullopt;
    outer_left[depth++] = left;
    left = (shape.field_bytes ? big_endian(p + at + 1, shape.field_bytes) : shape.size) * shape.per_count;
    at += 1 + shape.field_bytes;
  }
}

std::optional<size_t> plain_map_size(std::string_view bytes, size_t max_depth, TopFields& fields) {
  fields.complete_ = false;
  max_depth = std::min(max_depth, kMostPlainDepth);  // as plain_object_size caps it
  const auto header = map_header(bytes);
  if (!header || header->entries > TopFields::kMostEntries || bytes.size() > UINT32_MAX || max_depth == 0)
    return plain_object_size(bytes, max_depth);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  // An entry's key or value, one level down.
  const auto size_at = [&](size_t at) { return plain_size(bytes.substr(at), max_depth - 1); };
  size_t at = header->size;
  for (uint64_t i = 0; i < header->entries; ++i) {
    TopFields::Entry& e = fields.entries_[i];
    e.key_at = 0;
    size_t key_size;
    if (at < n && (p[at] & 0xe0) == 0xa0) {  // a fixstr, as writers write keys
      e.key_at = static_cast<uint32_t>(at + 1);
      e.key_size = p[at] & 0x1fu;
      key_size = 1 + e.key_size;
      if (key_size > n - at) return std::nullopt;
    } else {
      const auto size = size_at(at);
      if (!size) return std::nullopt;
      key_size = *size;
      if (const auto name = raw_str(bytes.substr(at, key_size))) {
        e.key_at = static_cast<uint32_t>(name->data() - bytes.data());
        e.key_size = static_cast<uint32_t>(name->size());
      }
    }
    at += key_size;
    const auto value_size = size_at(at);
    if (!value_size) return std::nullopt;
    e.value_at = static_cast<uint32_t>(at);
    e.value_size = static_cast<uint32_t>(*value_size);
    at += *value_size;
  }
  fields.count_ = static_cast<uint8_t>(header->entries);
  fields.complete_ = true;
  return at;
}

void TopFields::find(std::string_view bytes, std::span<const std::string_view> keys,
                     std::span<std::optional<std::string_view>> values) const {
  for (size_t f = 0; f < keys.size(); ++f) {
    values[f] = std::nullopt;
    for (size_t i = 0; i < count_; ++i) {  // the first entry of the key
      const Entry& e = entries_[i];
      // key_at 0: a key that is no str, which matches no key.
      if (e.key_size == keys[f].size() && e.key_at != 0 &&
          std::memcmp(bytes.data() + e.key_at, keys[f].data(), e.key_size) == 0) {
        values[f] = bytes.substr(e.value_at, e.value_size);
        break;
      }
    }
  }
}

std::optional<uint64_t> raw_uint(std::string_view value) {
  if (value.empty()) return std::nullopt;
  const auto tag = static_cast<unsigned char>(value[0]);
  if (tag < 0x80) return tag;
  if (tag >= 0xcc && tag <= 0xcf) return sized_uint(value, size_t(1) << (tag - 0xcc));
  return std::nullopt;
}

std::optional<std::string_view> raw_str(std::string_view value) {
  if (value.empty()) return std::nullopt;
  const auto tag = static_cast<unsigned char>(value[0]);
  size_t head = 0, length = 0;
  if ((tag & 0xe0) == 0xa0) {
    head = 1;
    length = tag & 0x1f;
  } else if (tag >= 0xd9 && tag <= 0xdb) {
    const size_t n = size_t(1) << (tag - 0xd9);
    const auto l = sized_uint(value, n);
    if (!l) return std::nullopt;
    head = 1 + n;
    length = *l;
  } else {
    return std::nullopt;
  }
  if (value.size() < head + length) return std::nullopt;
  return value.substr(head, length);
}

std::optional<std::string_view> raw_bin(std::string_view value) {
  if (value.empty()) return std::nullopt;
  const auto tag = static_cast<unsigned char>(value[0]);
  if (tag < 0xc4 || tag > 0xc6) return std::nullopt;
  const size_t n = size_t(1) << (tag - 0xc4);
  const auto length = sized_uint(value, n);
  if (!length || value.size() - 1 - n < *length) return std::nullopt;
  return value.substr(1 + n, *length);
}

std::optional<std::array<uint64_t, 3>> raw_uint3(std::string_view value) {
  if (value.empty() || static_cast<unsigned char>(value[0]) != 0x93) return std::nullopt;
  std::array<uint64_t, 3> out{};
  std::string_view rest = value.substr(1);
  for (auto& v : out) {
    const auto u = raw_uint(rest);
    if (!u) return std::nullopt;
    v = *u;
    const auto tag = static_cast<unsigned char>(rest[0]);
    rest.remove_prefix(tag < 0x80 ? 1 : 1 + (size_t(1) << (tag - 0xcc)));
  }
  return out;
}

bool is_raw_map(std::string_view bytes) { return map_header(bytes).has_value(); }

void raw_fields(std::string_view bytes, std::span<const std::string_view> keys,
                std::span<std::optional<std::string_view>> values, const std::string& where) {
  const auto header = map_header(bytes);
  if (!header) fail_input(where, "record is not a map");
  std::fill(values.begin(), values.end(), std::nullopt);
  size_t missing = keys.size();
  std::string_view rest = bytes.substr(header->size);
  for (uint64_t i = 0; i < header->entries && missing > 0; ++i) {
    const size_t key_size = object_size(rest, where);
    const std::string_view k = rest.substr(0, key_size);
    rest.remove_prefix(key_size);
    const size_t value_size = object_size(rest, where);
    // A str key matches when its body equals a key; a key of another kind never does.
    const std::optional<std::string_view> name = raw_str(k);
    for (size_t f = 0; name && f < keys.size(); ++f)
      if (!values[f] && *name == keys[f]) {
        values[f] = rest.substr(0, value_size);
        --missing;
      }
    rest.remove_prefix(value_size);
  }
}

std::optional<std::string_view> raw_field(std::string_view bytes, std::string_view key,
                                          const std::string& where) {
  std::optional<std::string_view> value;
  raw_fields(bytes, {&key, 1}, {&value, 1}, where);
  return value;
}

}  // namespace sasskit::stream
