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

// Bytes of the msgpack object at `bytes`, walked without building it.
size_t object_size(std::string_view bytes, const std::string& where) {
  msgpack::null_visitor v;
  size_t off = 0;
  if (!msgpack::parse(bytes.data(), bytes.size(), off, v)) fail_input(where, "record is cut short");
  return off;
}

}  // namespace

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
