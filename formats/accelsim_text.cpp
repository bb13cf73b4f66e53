#include "formats/accelsim_text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace sasskit::accelsim::detail {
namespace {

constexpr size_t kBlock = size_t(1) << 20;
constexpr size_t kFirstRead = size_t(1) << 14;
// A longer line is not Accel-Sim text (the longest real line, 32 listed
// addresses, is under 1 KiB); refusing it bounds memory.
constexpr size_t kMaxLine = size_t(1) << 20;

}  // namespace

constinit const std::array<int8_t, 256> kHexDigit = [] {
  std::array<int8_t, 256> digits{};
  digits.fill(-1);
  for (int d = 0; d < 10; ++d) digits['0' + d] = static_cast<int8_t>(d);
  for (int d = 0; d < 6; ++d) {
    digits['a' + d] = static_cast<int8_t>(10 + d);
    digits['A' + d] = static_cast<int8_t>(10 + d);
  }
  return digits;
}();

LineReader::LineReader(std::istream& in, const std::string& path) : in_(in), path_(path) {}

LineReader::LineReader(std::istream& in, const std::string& path, std::string_view first,
                       uint64_t lines_before)
    : in_(in), path_(path), buf_(first.begin(), first.end()), end_(first.size()), number_(lines_before) {}

namespace {

[[noreturn]] void refuse_long_line(const std::string& path, uint64_t number) {
  fail_input(path, number, "expected a line shorter than 1 MiB, found a longer one");
}

}  // namespace

bool LineReader::refill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  // Reads double from kFirstRead up to kBlock: a short input (a
  // kernelslist.g, a fuzzer's input) never pays for a megabyte buffer.
  const size_t read_size = std::clamp(buf_.size(), kFirstRead, kBlock);
  if (buf_.size() - end_ < read_size) buf_.resize(end_ + read_size);
  in_.read(buf_.data() + end_, static_cast<std::streamsize>(buf_.size() - end_));
  size_t got = static_cast<size_t>(in_.gcount());
  end_ += got;
  if (got == 0) eof_ = true;
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  size_t scanned = begin_;
  for (;;) {
    const char* start = buf_.data() + begin_;
    // Nothing to scan before the first read: the buffer may not exist yet.
    const char* nl = scanned < end_ ? static_cast<const char*>(
                                          std::memchr(buf_.data() + scanned, '\n', end_ - scanned))
                                    : nullptr;
    if (nl) {
      size_t len = static_cast<size_t>(nl - start);
      if (len > kMaxLine) refuse_long_line(path_, number_ + 1);
      last_begin_ = begin_;
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      line = std::string_view(start, len);
      terminated_ = true;
      ++number_;
      return true;
    }
    scanned = end_;
    size_t pending = end_ - begin_;
    if (pending > kMaxLine) refuse_long_line(path_, number_ + 1);
    if (!refill()) {
      if (pending == 0) return false;
      last_begin_ = begin_;
      line = std::string_view(buf_.data() + begin_, pending);
      begin_ = end_;
      terminated_ = false;
      ++number_;
      return true;
    }
    scanned = begin_ + pending;  // refill moved the pending bytes to the front
  }
}

bool ViewLines::next(std::string_view& line) {
  if (rest_.empty()) return false;
  const size_t nl = rest_.find('\n');
  size_t len = nl == std::string_view::npos ? rest_.size() : nl;
  if (len > kMaxLine) refuse_long_line(path_, number_ + 1);
  line = rest_.substr(0, len);
  terminated_ = nl != std::string_view::npos;
  rest_.remove_prefix(terminated_ ? len + 1 : len);
  if (terminated_ && len > 0 && line[len - 1] == '\r') line.remove_suffix(1);
  ++number_;
  return true;
}

std::string quoted(std::string_view token) {
  if (token.empty()) return "end of line";
  return quoted_input(token);
}

void expected(const Place& at, const std::string& what, const std::string& found) {
  fail_input(at.path, at.line, "expected " + what + ", found " + found);
}

bool parse_hex(std::string_view s, uint64_t& value) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > 16) return false;
  uint64_t v = 0;
  for (char c : s) {
    int d = kHexDigit[static_cast<unsigned char>(c)];
    if (d < 0) return false;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  value = v;
  return true;
}

namespace {
// The two hex digits of each byte value: the text writer's masks and
// addresses take a byte per step.
constexpr std::array<char, 512> kHexPairs = [] {
  std::array<char, 512> pairs{};
  for (int byte = 0; byte < 256; ++byte) {
    pairs[2 * byte] = "0123456789abcdef"[byte >> 4];
    pairs[2 * byte + 1] = "0123456789abcdef"[byte & 0xf];
  }
  return pairs;
}();
}  // namespace

char* put_hex(char* out, uint64_t value, int width) {
  const int digits = std::max(width, (67 - std::countl_zero(value | 1)) / 4);
  char* p = out + digits;
  for (; p - out >= 2; value >>= 8) {
    p -= 2;
    std::memcpy(p, &kHexPairs[2 * (value & 0xff)], 2);
  }
  if (p != out) *out = kHexPairs[2 * (value & 0xf) + 1];
  return out + digits;
}

void append_hex(std::string& out, uint64_t value, int width) {
  char buf[16];
  out.append(buf, put_hex(buf, value, width));
}

bool has_control_character(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

}  // namespace sasskit::accelsim::detail
