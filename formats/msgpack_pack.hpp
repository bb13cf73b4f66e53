// Writing msgpack maps field by field, shared by the record codecs.
#pragma once

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

}  // namespace sasskit::stream
