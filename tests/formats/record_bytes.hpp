// Records built in memory for the codec tests: a typed value packed by its
// codec, or a map of hand-picked entries (pack_map_of), as a reader has it.
#pragma once

#include <string>

#include "formats/msgpack_pack.hpp"

namespace sasskit::stream::test {

template <class T>
Record record_of(const T& value) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  RecordCodec<T>::pack(pk, value);
  return Record(std::string(buf.data(), buf.size()), "test");
}

template <class Entries>
Record record_with(Entries&& entries) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  pack_map_of(pk, entries);
  return Record(std::string(buf.data(), buf.size()), "test");
}

}  // namespace sasskit::stream::test
