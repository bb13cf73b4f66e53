// Reading fields out of a msgpack map with errors that name the record and
// the field, instead of msgpack's bare type_error.
#pragma once

#include <msgpack.hpp>
#include <span>
#include <string>
#include <string_view>

#include "libcommon/diag.hpp"

namespace sasskit {

class MapView {
 public:
  MapView(const msgpack::object& o, std::string where) : where_(std::move(where)) {
    if (o.type != msgpack::type::MAP) fail_input(where_, "expected a map");
    map_ = &o.via.map;
  }

  const msgpack::object* find(std::string_view key) const {
    for (uint32_t i = 0; i < map_->size; ++i) {
      const auto& k = map_->ptr[i].key;
      if (k.type == msgpack::type::STR && std::string_view(k.via.str.ptr, k.via.str.size) == key)
        return &map_->ptr[i].val;
    }
    return nullptr;
  }
  bool has(std::string_view key) const { return find(key) != nullptr; }

  const msgpack::object& at(std::string_view key) const {
    const msgpack::object* v = find(key);
    if (!v) fail_input(where_, "field '" + std::string(key) + "' is missing");
    return *v;
  }

  template <class T>
  T get(std::string_view key) const {
    return convert<T>(at(key), key);
  }
  template <class T>
  T get_or(std::string_view key, T fallback) const {
    const msgpack::object* v = find(key);
    return v ? convert<T>(*v, key) : fallback;
  }

  // The elements of an array field.
  std::span<const msgpack::object> array(std::string_view key) const {
    const msgpack::object& v = at(key);
    if (v.type != msgpack::type::ARRAY)
      fail_input(where_, "field '" + std::string(key) + "' is not an array");
    return {v.via.array.ptr, v.via.array.size};
  }

  const std::string& where() const { return where_; }

  template <class T>
  T convert(const msgpack::object& v, std::string_view key) const {
    try {
      return v.as<T>();
    } catch (const std::exception&) {
      fail_input(where_, "field '" + std::string(key) + "' has the wrong type");
    }
  }

 private:
  const msgpack::object_map* map_;
  std::string where_;
};

}  // namespace sasskit

