#include "diag.hpp"

#include <iostream>

#include "progress.hpp"

namespace sasskit {
namespace {
std::string g_program = "sasskit";
bool g_quiet = false;

// `text`, escaped, with its middle left out when it is longer than `most`.
std::string bounded_message(std::string_view text, size_t most) {
  if (text.size() <= most) return printable(text);
  const size_t half = most / 2;
  return printable(text.substr(0, half)) + "...[" + std::to_string(text.size() - 2 * half) + " bytes left out]..." +
         printable(text.substr(text.size() - half));
}

void print_line(const std::string& where, const std::string& prefix, const std::string& what) {
  std::string line = g_program + ": ";
  if (!where.empty()) line += bounded_message(where, kLongestMessage / 4) + ": ";
  line += prefix + bounded_message(what, kLongestMessage) + "\n";
  clear_progress_line();
  std::cerr << line << std::flush;
}
}  // namespace

std::string printable(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      out.push_back(ch);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

namespace {
// The first kQuotedBytes of `text`, less a UTF-8 character the cut would split.
std::string_view quoted_prefix(std::string_view text) {
  size_t cut = kQuotedBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}
}  // namespace

std::string bounded_input(std::string_view text) {
  if (text.size() <= kQuotedBytes) return printable(text);
  return printable(quoted_prefix(text)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string quoted_input(std::string_view text) {
  if (text.size() <= kQuotedBytes) return "'" + printable(text) + "'";
  return "'" + printable(quoted_prefix(text)) + "...' (" + std::to_string(text.size()) + " bytes)";
}

std::string location(const std::string& file, uint64_t line) {
  return file + ":" + std::to_string(line);
}

void fail_input(const std::string& file, uint64_t line, const std::string& what) {
  throw Error(ExitCode::BadInput, location(file, line), what);
}
void fail_input(const std::string& where, const std::string& what) {
  throw Error(ExitCode::BadInput, where, what);
}
void fail_io(const std::string& file, const std::string& what) {
  throw Error(ExitCode::Io, file, what);
}
void fail_usage(const std::string& what) { throw Error(ExitCode::Usage, "", what); }
void fail(const std::string& what) { throw Error(ExitCode::Failure, "", what); }

void set_program_name(std::string name) { g_program = std::move(name); }
const std::string& program_name() { return g_program; }

void print_error(const Error& e) { print_line(e.where(), "", e.what()); }

void warn(const std::string& where, const std::string& what) {
  if (!g_quiet) print_line(where, "warning: ", what);
}
void set_quiet(bool q) { g_quiet = q; }
bool quiet() { return g_quiet; }

}  // namespace sasskit
