// libFuzzer target: stream records -> JSON Lines (trace-unpack --to jsonl),
// every typed record decoded on the way. Each JSON line must parse back, as
// valid UTF-8, to the same shape as its msgpack record.
#include <string>

#include "formats/cache_record.hpp"
#include "formats/plan_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "formats/stats_record.hpp"
#include "formats/stream_json.hpp"
#include "fuzz_input.hpp"

namespace {
using namespace sasskit;

// The shape of a msgpack object: containers with their sizes, scalars by kind.
void shape_of(const msgpack::object& o, std::string& out) {
  switch (o.type) {
    case msgpack::type::ARRAY:
      out += "[";
      for (uint32_t i = 0; i < o.via.array.size; ++i) shape_of(o.via.array.ptr[i], out);
      out += "]";
      break;
    case msgpack::type::MAP:
      out += "{";
      for (uint32_t i = 0; i < o.via.map.size; ++i) {
        out += "k";
        shape_of(o.via.map.ptr[i].val, out);
      }
      out += "}";
      break;
    case msgpack::type::STR: out += "s"; break;
    default: out += "v"; break;  // numbers, booleans, null, and what JSON writes as null
  }
}

// A strict JSON reader producing the same shape; traps on invalid JSON.
class JsonShape {
 public:
  explicit JsonShape(std::string_view text) : t_(text) {}
  std::string read() {
    std::string out;
    value(out);
    if (i_ != t_.size()) __builtin_trap();
    return out;
  }

 private:
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void expect(char c) {
    if (peek() != c) __builtin_trap();
    ++i_;
  }
  void value(std::string& out) {
    const char c = peek();
    if (c == '{') return object(out);
    if (c == '[') return array(out);
    if (c == '"') {
      string();
      out += "s";
      return;
    }
    scalar();
    out += "v";
  }
  void object(std::string& out) {
    expect('{');
    out += "{";
    for (bool first = true; peek() != '}'; first = false) {
      if (!first) expect(',');
      string();
      expect(':');
      out += "k";
      value(out);
    }
    expect('}');
    out += "}";
  }
  void array(std::string& out) {
    expect('[');
    out += "[";
    for (bool first = true; peek() != ']'; first = false) {
      if (!first) expect(',');
      value(out);
    }
    expect(']');
    out += "]";
  }
  void string() {
    expect('"');
    while (peek() != '"') {
      const auto c = static_cast<unsigned char>(peek());
      if (i_ >= t_.size() || c < 0x20) __builtin_trap();
      if (c == '\\') {
        ++i_;
        if (std::string_view("\"\\/bfnrtu").find(peek()) == std::string_view::npos) __builtin_trap();
      } else if (c >= 0x80) {
        utf8();
        continue;
      }
      ++i_;
    }
    expect('"');
  }
  void utf8() {
    const auto c = static_cast<unsigned char>(t_[i_]);
    const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (n == 0 || c > 0xf4 || i_ + n > t_.size()) __builtin_trap();
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(t_[i_ + k]) & 0xc0) != 0x80) __builtin_trap();
    i_ += n;
  }
  void scalar() {
    const size_t start = i_;
    while (std::string_view("-+.eE0123456789truefalsn").find(peek()) != std::string_view::npos && peek())
      ++i_;
    const std::string_view word = t_.substr(start, i_ - start);
    if (word.empty()) __builtin_trap();
    if (word != "true" && word != "false" && word != "null" && (word[0] < '0' || word[0] > '9') && word[0] != '-')
      __builtin_trap();
  }
  std::string_view t_;
  size_t i_ = 0;
};

void decode_typed(const stream::Record& r) {
  switch (r.type()) {
    case stream::RecordType::Kernel: stream::decode<KernelInfo>(r); break;
    case stream::RecordType::Insts: stream::decode<InstTable>(r); break;
    case stream::RecordType::Cta: stream::decode<CtaTrace>(r); break;
    case stream::RecordType::Memcpy: stream::decode<Memcpy>(r); break;
    case stream::RecordType::Cache: stream::decode<KernelCacheModel>(r); break;
    case stream::RecordType::Plan: stream::decode<Plan>(r); break;
    case stream::RecordType::Sample: stream::decode<KernelSample>(r); break;
    case stream::RecordType::Sched: stream::decode<KernelSchedule>(r); break;
    case stream::RecordType::Stats: stream::decode<KernelStats>(r); break;
    case stream::RecordType::End:
    case stream::RecordType::Other: break;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto in = fuzz::stream(data, size);
  return fuzz::refuse_or_parse([&] {
    stream::Reader reader(in, "fuzz");
    stream::Record r;
    while (reader.next(r)) {
      std::ostringstream line;
      JsonWriter json(line);
      write_json(json, r.object(), r.where());
      std::string want;
      shape_of(r.object(), want);
      if (JsonShape(line.str()).read() != want) __builtin_trap();
      decode_typed(r);
    }
  });
}
