// Any msgpack object as JSON, for `--to jsonl` (one record per line).
#pragma once

#include <msgpack.hpp>
#include <string>

#include "formats/stream.hpp"
#include "libcommon/json.hpp"

namespace sasskit {

// Map keys that are numbers, booleans or null are written as their JSON
// text; a key that is an array or a map is bad input at `where` (written as
// a string it would be escaped once per level of nesting, so its size would
// double with each level). Binary and extension objects, which the stream
// does not use, become null.
void write_json(JsonWriter& json, const msgpack::object& o, const std::string& where);

// A provenance chain as the stream header holds it (sasskit-stream(5)), as
// a JSON array of {"tool", "version", "argv", and "gpu", "gpu_fingerprint"
// and "options" where recorded}, first stage first.
void write_provenance(JsonWriter& json, const std::vector<stream::Stage>& stages);

// What a JSON report made from a stream records as its "provenance": the
// stages of the stream it read (`upstream`: its header's, the first
// member's for a summary of several), then its own.
std::vector<stream::Stage> report_provenance(const std::vector<stream::Stage>& upstream, stream::Stage self);

// A CSV report's --provenance-file: {"provenance": [...]} as write_provenance
// writes it, into `path` whole or not at all (the CSV itself carries none,
// so that it loads as it is).
void write_provenance_file(const std::string& path, const std::vector<stream::Stage>& stages);

}  // namespace sasskit
