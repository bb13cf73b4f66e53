// Any msgpack object as JSON, for `--to jsonl` (one record per line).
#pragma once

#include <msgpack.hpp>

#include "libcommon/json.hpp"

namespace sasskit {

// Maps with non-string keys get their keys written as JSON strings; binary
// and extension objects, which the stream does not use, become null.
void write_json(JsonWriter& json, const msgpack::object& o);

}  // namespace sasskit
