// Byte-level building blocks of the archive (formats/ARCHIVE.md): LEB128
// varints, zigzag for signed values, and a bounds-checked reader whose every
// overrun is reported as a damaged archive instead of reading past the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "libcommon/diag.hpp"

namespace sasskit::archive {

inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Bytes appended through a cursor into room made ahead: an append checks
// the room once, where std::string's push_back also rewrote its terminator
// and its short-string state for every byte.
class ByteSink {
 public:
  void u8(uint8_t v) {
    *room(1) = static_cast<char>(v);
    ++size_;
  }
  void varint(uint64_t v) { size_ = static_cast<size_t>(put_varint(room(kMaxVarintBytes), v) - buf_.data()); }
  void svarint(int64_t v) { varint(zigzag(v)); }
  // n varints at once, with one check of the room for them.
  void varints(const uint64_t* values, size_t n) {
    write_at_most(kMaxVarintBytes * n, [&](char* p) {
      for (size_t i = 0; i < n; ++i) p = put_varint(p, values[i]);
      return p;
    });
  }
  // Up to `most` bytes at once: `write(char* at)` writes them (put_varint)
  // and returns where it stopped.
  template <class Write>
  void write_at_most(size_t most, Write write) {
    size_ = static_cast<size_t>(write(room(most)) - buf_.data());
  }
  static constexpr size_t kMaxVarintBytes = 10;
  static char* put_varint(char* p, uint64_t v) {
    for (; v >= 0x80; v >>= 7) *p++ = static_cast<char>(v | 0x80);
    *p++ = static_cast<char>(v);
    return p;
  }
  // Little-endian fixed width, for headers that are patched or read by offset.
  void fixed(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void raw(std::string_view bytes) {
    if (bytes.empty()) return;
    std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
    size_ += bytes.size();
  }
  // A length-prefixed byte string.
  void str(std::string_view bytes) {
    varint(bytes.size());
    raw(bytes);
  }
  std::string_view data() const { return {buf_.data(), size_}; }
  // The bytes, leaving the sink empty.
  std::string take() {
    buf_.resize(size_);
    size_ = 0;
    return std::move(buf_);
  }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }

 private:
  // At least n bytes of room at the cursor.
  char* room(size_t n) {
    if (buf_.size() - size_ < n) buf_.resize(std::max(2 * buf_.size(), size_ + n + 64));
    return buf_.data() + size_;
  }
  std::string buf_;  // the bytes are its first size_
  size_t size_ = 0;
};

class ByteSource {
 public:
  // `where` names the data in messages, e.g. "a.sass.z: kernel 3 block at offset 812";
  // `damage` starts every message about bad data.
  ByteSource(std::string_view data, std::string where, std::string damage = "damaged archive")
      : data_(data), where_(std::move(where)), damage_(std::move(damage)) {}

  uint8_t u8() {
    need(1);
    return static_cast<uint8_t>(data_[pos_++]);
  }
  uint64_t varint() {
    if (pos_ < data_.size() && static_cast<uint8_t>(data_[pos_]) < 0x80)  // most are one byte
      return static_cast<uint8_t>(data_[pos_++]);
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = u8();
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    damaged("varint longer than 10 bytes");
  }
  int64_t svarint() { return unzigzag(varint()); }
  // Two varints of one byte each, read at once where the next two bytes
  // are (a column of small values); false, reading nothing, otherwise.
  bool two_small(uint8_t& first, uint8_t& second) {
    if (remaining() < 2) return false;
    first = static_cast<uint8_t>(data_[pos_]);
    second = static_cast<uint8_t>(data_[pos_ + 1]);
    if ((first | second) & 0x80) return false;
    pos_ += 2;
    return true;
  }
  // A value coded as its difference from `base`: damaged where the sum
  // overflows (no valid data does), never wrapped.
  int64_t svarint_after(int64_t base) {
    int64_t v = 0;
    if (__builtin_add_overflow(base, svarint(), &v)) damaged("a difference past the range of its value");
    return v;
  }
  uint64_t fixed(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(u8()) << (8 * i);
    return v;
  }
  std::string_view raw(size_t n) {
    need(n);
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string_view str() { return raw(varint()); }
  // A count of things that each take at least one byte: bounded by what is left.
  uint64_t count() {
    uint64_t n = varint();
    if (n > remaining()) damaged("count " + std::to_string(n) + " exceeds the data");
    return n;
  }

  // Reads `data` from its start instead, with the same names in messages.
  void restart(std::string_view data) {
    data_ = data;
    pos_ = 0;
  }

  size_t remaining() const { return data_.size() - pos_; }
  std::string_view rest() const { return data_.substr(pos_); }
  bool done() const { return pos_ == data_.size(); }
  const std::string& where() const { return where_; }
  [[noreturn]] void damaged(const std::string& what) const {
    fail_input(where_, damage_ + ": " + what);
  }

 private:
  void need(uint64_t n) const {
    if (n > remaining()) damaged("data ends early");
  }

  std::string_view data_;
  size_t pos_ = 0;
  std::string where_;
  std::string damage_;
};

}  // namespace sasskit::archive
