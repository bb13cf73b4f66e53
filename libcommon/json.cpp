#include "json.hpp"

#include <charconv>
#include <cmath>

namespace sasskit {

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          static const char hex[] = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ << '{';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  first_.pop_back();
  out_ << '}';
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ << '[';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  first_.pop_back();
  out_ << ']';
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  out_ << json_escape(k) << ':';
  after_key_ = true;
  return *this;
}
JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  out_ << json_escape(s);
  return *this;
}
JsonWriter& JsonWriter::value(bool b) {
  separate();
  out_ << (b ? "true" : "false");
  return *this;
}
JsonWriter& JsonWriter::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ << "null";  // JSON has no NaN or infinity
    return *this;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
  out_.write(buf, r.ptr - buf);
  return *this;
}
JsonWriter& JsonWriter::value(int64_t i) {
  separate();
  out_ << i;
  return *this;
}
JsonWriter& JsonWriter::value(uint64_t u) {
  separate();
  out_ << u;
  return *this;
}
JsonWriter& JsonWriter::null() {
  separate();
  out_ << "null";
  return *this;
}

}  // namespace sasskit
