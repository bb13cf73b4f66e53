#include "formats/msgpack_raw.hpp"

#include <cstdint>
#include <msgpack.hpp>

#include "libcommon/diag.hpp"

namespace sasskit::stream {
namespace {

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

// Bytes of a scalar, str or bin object from its tag and length (most keys
// and values of a record), or 0 for the kinds the parser walks: arrays,
// maps, ext, the unused tag, and a length field cut short.
size_t flat_object_size(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const unsigned char tag = p[0];
  if (tag < 0x80 || tag >= 0xe0 || tag == 0xc0 || tag == 0xc2 || tag == 0xc3) return 1;
  if ((tag & 0xe0) == 0xa0) return 1 + (tag & 0x1fu);
  if (tag >= 0xca && tag <= 0xd3) {  // float32, float64, uint8 to 64, int8 to 64
    static constexpr unsigned char kBody[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8};
    return 1 + size_t(kBody[tag - 0xca]);
  }
  size_t length_bytes = 0;
  if (tag >= 0xc4 && tag <= 0xc6) length_bytes = size_t(1) << (tag - 0xc4);  // bin8 to 32
  if (tag >= 0xd9 && tag <= 0xdb) length_bytes = size_t(1) << (tag - 0xd9);  // str8 to 32
  if (length_bytes == 0 || bytes.size() < 1 + length_bytes) return 0;
  return 1 + length_bytes + big_endian(p + 1, length_bytes);
}

// Bytes of the msgpack object at `bytes`, walked without building it.
size_t object_size(std::string_view bytes, const std::string& where) {
  if (!bytes.empty()) {
    if (const size_t flat = flat_object_size(bytes)) {
      if (flat > bytes.size()) fail_input(where, "record is cut short");
      return flat;
    }
  }
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

std::optional<std::string_view> raw_field(std::string_view bytes, std::string_view key,
                                          const std::string& where) {
  const auto header = map_header(bytes);
  if (!header) fail_input(where, "record is not a map");
  std::string_view rest = bytes.substr(header->size);
  for (uint64_t i = 0; i < header->entries; ++i) {
    const size_t key_size = object_size(rest, where);
    const std::string_view k = rest.substr(0, key_size);
    rest.remove_prefix(key_size);
    const size_t value_size = object_size(rest, where);
    // A str key matches when its body equals `key` (fixstr or str8/16/32).
    const auto* p = reinterpret_cast<const unsigned char*>(k.data());
    size_t head = (p[0] & 0xe0) == 0xa0 ? 1 : p[0] == 0xd9 ? 2 : p[0] == 0xda ? 3 : p[0] == 0xdb ? 5 : 0;
    if (head > 0 && k.substr(head) == key) return rest.substr(0, value_size);
    rest.remove_prefix(value_size);
  }
  return std::nullopt;
}

}  // namespace sasskit::stream
