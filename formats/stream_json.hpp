// Any msgpack object as JSON, for `--to jsonl` (one record per line).
#pragma once

#include <msgpack.hpp>
#include <string>

#include "libcommon/json.hpp"

namespace sasskit {

// Map keys that are numbers, booleans or null are written as their JSON
// text; a key that is an array or a map is bad input at `where` (written as
// a string it would be escaped once per level of nesting, so its size would
// double with each level). Binary and extension objects, which the stream
// does not use, become null.
void write_json(JsonWriter& json, const msgpack::object& o, const std::string& where);

}  // namespace sasskit
