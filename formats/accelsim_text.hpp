// Internals shared by the Accel-Sim text reader and writer (formats/ACCELSIM.md):
// a block-buffered line reader, a field splitter, number parsing and
// formatting without iostreams, and the instruction-line grammar.
#pragma once

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "formats/trace.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::accelsim::detail {

// Lines of a text stream, read in large blocks. A line excludes its '\n'
// (and a '\r' before it).
// A line longer than 1 MiB (with a '\r' before its '\n') is refused.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& path);
  // Reads `first` (the text before what `in` holds, whose first line is
  // number `lines_before` + 1), then `in`.
  LineReader(std::istream& in, const std::string& path, std::string_view first, uint64_t lines_before);
  // The next line; false at end of input.
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  uint64_t number() const { return number_; }
  // Whether the line last returned ended with a newline (false only for a
  // last line cut short).
  bool terminated() const { return terminated_; }
  // The text read from `in` but not returned, from the start of the line
  // last returned: where another reader of `in` takes over.
  std::string_view rest_from_last_line() const {
    return {buf_.data() + last_begin_, end_ - last_begin_};
  }

 private:
  bool refill();

  std::istream& in_;
  const std::string& path_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  size_t last_begin_ = 0;  // of the line last returned
  bool eof_ = false;
  bool terminated_ = true;
  uint64_t number_ = 0;
};

// The same lines from text in memory (LineReader's rules), numbered from
// `lines_before` + 1.
class ViewLines {
 public:
  ViewLines(std::string_view text, const std::string& path, uint64_t lines_before)
      : rest_(text), path_(path), number_(lines_before) {}
  bool next(std::string_view& line);
  uint64_t number() const { return number_; }
  bool terminated() const { return terminated_; }

 private:
  std::string_view rest_;
  const std::string& path_;
  uint64_t number_;
  bool terminated_ = true;
};

// Where a message points: file and line.
struct Place {
  const std::string& path;
  uint64_t line;
};

// "expected WHAT, found FOUND" at `at`.
[[noreturn]] void expected(const Place& at, const std::string& what, const std::string& found);
// A token as messages quote it: 'tok', or "end of line" when empty.
std::string quoted(std::string_view token);

// True if `s` holds a byte below 0x20 or DEL: a line break in it would
// inject lines into the text written.
bool has_control_character(std::string_view s);

// Hexadecimal with an optional 0x prefix, at most 64 bits.
bool parse_hex(std::string_view s, uint64_t& value);

template <class T>
bool parse_dec(std::string_view s, T& value) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), value);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// The value of each byte as a hexadecimal digit, -1 if it is none.
extern const std::array<int8_t, 256> kHexDigit;

// Splits a line into fields separated by runs of spaces or tabs.
// next_dec and next_hex read a field and its number in one pass where the
// field is a plain number; anything else (and every refusal) goes through
// next() and parse_dec or parse_hex, which decide.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  // The next field, or an empty view at end of line.
  std::string_view next() {
    skip_blanks();
    size_t j = 0;
    while (j < rest_.size() && !is_blank(rest_[j])) ++j;
    std::string_view field = rest_.substr(0, j);
    rest_.remove_prefix(j);
    return field;
  }
  bool at_end() {
    skip_blanks();
    return rest_.empty();
  }
  // The next field as `prefix` then a decimal T, as parse_dec reads it;
  // on false `field` holds the whole field, for the message.
  template <class T>
  [[gnu::always_inline]] bool next_dec(T& value, std::string_view& field, char prefix = 0);
  // The next field as parse_hex reads it; on false `field` holds it.
  bool next_hex(uint64_t& value, std::string_view& field);
  // Where the next field starts (the end of the line if there is none).
  const char* upcoming() {
    skip_blanks();
    return rest_.data();
  }
  // Where the last field read ends.
  const char* position() const { return rest_.data(); }
  // Passes over `text` if the line goes on with exactly these fields.
  bool skip_text(std::string_view text) {
    skip_blanks();
    if (!rest_.starts_with(text)) return false;
    std::string_view field;
    return take(text.size(), field);
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t'; }
  void skip_blanks() {
    size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i])) ++i;
    rest_.remove_prefix(i);
  }
  // Takes the first `n` characters as a field that ends there, if one does.
  bool take(size_t n, std::string_view& field) {
    if (n < rest_.size() && !is_blank(rest_[n])) return false;
    field = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return true;
  }

  std::string_view rest_;
};

template <class T>
inline bool Fields::next_dec(T& value, std::string_view& field, char prefix) {
  static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(uint64_t));
  skip_blanks();
  if (prefix == 0 || (!rest_.empty() && rest_[0] == prefix)) {
    const char* const begin = rest_.data();
    const char* const end = begin + rest_.size();
    const char* p = prefix == 0 ? begin : begin + 1;
    const bool negative = std::is_signed_v<T> && p != end && *p == '-';
    if (negative) ++p;
    const char* const first = p;
    // 19 digits always fit 64 bits; more (leading zeros) are left to parse_dec.
    const char* const stop = end - first > 19 ? first + 19 : end;
    uint64_t u = 0;
    for (; p != stop; ++p) {
      const unsigned digit = static_cast<unsigned char>(*p) - unsigned('0');
      if (digit > 9) break;
      u = u * 10 + digit;
    }
    const uint64_t limit = uint64_t(std::numeric_limits<T>::max()) + (negative ? 1 : 0);
    if (p != first && u <= limit && take(static_cast<size_t>(p - begin), field)) {
      value = static_cast<T>(negative ? uint64_t(0) - u : u);
      return true;
    }
  }
  field = next();
  if (prefix == 0) return parse_dec(field, value);
  return field.size() > 1 && field[0] == prefix && parse_dec(field.substr(1), value);
}

inline bool Fields::next_hex(uint64_t& value, std::string_view& field) {
  skip_blanks();
  const size_t size = rest_.size();
  size_t i = size > 2 && rest_[0] == '0' && (rest_[1] == 'x' || rest_[1] == 'X') ? 2 : 0;
  const size_t first = i;
  uint64_t v = 0;
  for (; i < size && i - first < 16; ++i) {
    const int digit = kHexDigit[static_cast<unsigned char>(rest_[i])];
    if (digit < 0) break;
    v = (v << 4) | static_cast<uint64_t>(digit);
  }
  if (i > first && take(i, field)) {
    value = v;
    return true;
  }
  field = next();
  return parse_hex(field, value);
}

// Lower-case hexadecimal, zero-padded to at least `width` (at most 16) digits.
void append_hex(std::string& out, uint64_t value, int width = 1);
// The same at `out`, which has room for 16 characters; returns their end.
char* put_hex(char* out, uint64_t value, int width = 1);

// Whether a mask's active lanes form one run, as address mode 1
// (base+stride) needs them.
inline bool contiguous_lanes(uint32_t mask) {
  uint32_t shifted = mask >> std::countr_zero(mask);
  return (shifted & (shifted + 1)) == 0;
}

template <class T>
void append_dec(std::string& out, T value) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

// The optional parts of an instruction line, fixed per kernel.
struct LineLayout {
  bool lineinfo = false;  // a source line number comes first
  bool immediate = false; // an immediate comes last (tracer version 5)
};
// Line numbers with lineinfo; immediates from version 5 on, or when a
// header comment names them.
LineLayout layout_of(const KernelInfo& k);

// The instruction part of a line (everything after the raw layout's thread
// block and warp ids) in three parts, read from `fields` in turn. The head,
// "[line] PC mask", into inst.line, inst.pc and `mask`:
void parse_head(Fields& fields, const Place& at, const LineLayout& layout, StaticInst& inst,
                uint32_t& mask);
// the body, "dst count, dsts, opcode, src count, srcs, width", into the
// rest of `inst` but its immediate;
void parse_body(Fields& fields, const Place& at, StaticInst& inst);
// the tail: for a memory access (`mem_width` > 0) its address mode,
// addresses and extra values, appended to `warp`; then the immediate, which
// is returned (empty where the layout has none), and the end of the line.
// `memo`, if given, keeps the last base+delta deltas read with it, as
// text and as offsets from the base: the same text again is not parsed.
// After kGiveUp lines in a row that differ (random addresses) it stops
// remembering, which costs more than it saves there.
struct DeltaMemo {
  static constexpr unsigned kGiveUp = 8;
  std::string text;
  std::vector<uint64_t> offsets;
  unsigned misses = 0;
};
std::string_view parse_tail(Fields& fields, const Place& at, const LineLayout& layout,
                            uint32_t mem_width, uint32_t mask, WarpTrace& warp,
                            DeltaMemo* memo = nullptr);

// Kernel header lines (formats/ACCELSIM.md, "Header").
bool is_header_line(std::string_view line);
// Refuses a header whose name, version or comments would not read back as
// the same single lines (a newline in a kernel name injects lines).
void check_header_text(const KernelInfo& k);
struct HeaderParser {
  explicit HeaderParser(const std::string& path);
  void add(std::string_view line, uint64_t number);
  // Checks that every required field was seen; `at` names where the header ended.
  KernelInfo finish(const Place& at, std::string_view found);

 private:
  const std::string& path_;
  KernelInfo k_;
  uint32_t seen_ = 0;
};
void append_header(std::string& out, const KernelInfo& k);

}  // namespace sasskit::accelsim::detail
