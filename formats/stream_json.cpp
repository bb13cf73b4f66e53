#include "formats/stream_json.hpp"

#include <sstream>

#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit {
namespace {
std::string key_text(const msgpack::object& k, const std::string& where) {
  if (k.type == msgpack::type::STR) return std::string(k.via.str.ptr, k.via.str.size);
  if (k.type == msgpack::type::ARRAY || k.type == msgpack::type::MAP)
    fail_input(where, "a map key is an array or a map, which JSON cannot hold");
  std::ostringstream s;
  JsonWriter inner(s);
  write_json(inner, k, where);
  return s.str();
}
}  // namespace

void write_json(JsonWriter& json, const msgpack::object& o, const std::string& where) {
  switch (o.type) {
    case msgpack::type::NIL: json.null(); break;
    case msgpack::type::BOOLEAN: json.value(o.via.boolean); break;
    case msgpack::type::POSITIVE_INTEGER: json.value(static_cast<uint64_t>(o.via.u64)); break;
    case msgpack::type::NEGATIVE_INTEGER: json.value(static_cast<int64_t>(o.via.i64)); break;
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64: json.value(o.via.f64); break;
    case msgpack::type::STR: json.value(std::string_view(o.via.str.ptr, o.via.str.size)); break;
    case msgpack::type::ARRAY:
      json.begin_array();
      for (uint32_t i = 0; i < o.via.array.size; ++i) write_json(json, o.via.array.ptr[i], where);
      json.end_array();
      break;
    case msgpack::type::MAP:
      json.begin_object();
      for (uint32_t i = 0; i < o.via.map.size; ++i) {
        json.key(key_text(o.via.map.ptr[i].key, where));
        write_json(json, o.via.map.ptr[i].val, where);
      }
      json.end_object();
      break;
    default: json.null(); break;
  }
}

void write_provenance(JsonWriter& json, const std::vector<stream::Stage>& stages) {
  json.begin_array();
  for (const stream::Stage& s : stages) {
    json.begin_object().field("tool", s.tool).field("version", s.version).key("argv");
    json.array(s.argv);
    if (!s.gpu.empty()) json.field("gpu", s.gpu);
    if (!s.gpu_fingerprint.empty()) json.field("gpu_fingerprint", s.gpu_fingerprint);
    if (s.options) {
      json.key("options").begin_object();
      for (const auto& [name, value] : *s.options) json.field(name, value);
      json.end_object();
    }
    json.end_object();
  }
  json.end_array();
}

std::vector<stream::Stage> report_provenance(const std::vector<stream::Stage>& upstream, stream::Stage self) {
  std::vector<stream::Stage> stages = upstream;
  stages.push_back(std::move(self));
  return stages;
}

void write_provenance_file(const std::string& path, const std::vector<stream::Stage>& stages) {
  Output out(path, OutputKind::Text);
  JsonWriter json(out.stream());
  json.begin_object().key("provenance");
  write_provenance(json, stages);
  json.end_object();
  out.stream() << '\n';
  out.commit();
}

}  // namespace sasskit
