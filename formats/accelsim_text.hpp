// Internals shared by the Accel-Sim text reader and writer (formats/ACCELSIM.md):
// a block-buffered line reader, a field splitter, number parsing and
// formatting without iostreams, and the instruction-line grammar.
#pragma once

#include <charconv>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "formats/trace.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::accelsim::detail {

// Lines of a text stream, read in large blocks. A line excludes its '\n'
// (and a '\r' before it).
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& path);
  // The next line; false at end of input.
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  uint64_t number() const { return number_; }
  // Whether the line last returned ended with a newline (false only for a
  // last line cut short).
  bool terminated() const { return terminated_; }

 private:
  bool refill();

  std::istream& in_;
  const std::string& path_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool terminated_ = true;
  uint64_t number_ = 0;
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

// Splits a line into fields separated by runs of spaces or tabs.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  // The next field, or an empty view at end of line.
  std::string_view next() {
    size_t i = 0;
    while (i < rest_.size() && (rest_[i] == ' ' || rest_[i] == '\t')) ++i;
    size_t j = i;
    while (j < rest_.size() && rest_[j] != ' ' && rest_[j] != '\t') ++j;
    std::string_view field = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return field;
  }
  bool at_end() {
    while (!rest_.empty() && (rest_.front() == ' ' || rest_.front() == '\t')) rest_.remove_prefix(1);
    return rest_.empty();
  }

 private:
  std::string_view rest_;
};

// Hexadecimal with an optional 0x prefix, at most 64 bits.
bool parse_hex(std::string_view s, uint64_t& value);

template <class T>
bool parse_dec(std::string_view s, T& value) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), value);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Lower-case hexadecimal, zero-padded to at least `width` (at most 16) digits.
void append_hex(std::string& out, uint64_t value, int width = 1);
// The same at `out`, which has room for 16 characters; returns their end.
char* put_hex(char* out, uint64_t value, int width = 1);

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

// Parses the instruction part of a line (everything after the raw layout's
// thread block and warp ids) into `inst` and `mask`, and appends the
// address mode, addresses and extra values of a memory access to `warp`.
void parse_instruction(Fields& fields, const Place& at, const LineLayout& layout,
                       StaticInst& inst, uint32_t& mask, WarpTrace& warp);

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
