// Diagnostics: the error type every library function throws, the exit codes
// every tool documents, and warnings that never change the exit status.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sasskit {

// Exit statuses shared by all tools; each man page lists them under EXIT STATUS.
enum class ExitCode : int {
  Ok = 0,         // success
  Failure = 1,    // the work could not be done (model limit, no matching data)
  Usage = 2,      // bad command line or option value
  BadInput = 3,   // malformed or inconsistent input data
  Io = 4,         // a file could not be opened, read or written
  Internal = 5,   // a bug: please report it
};
// A closed pipe (`tool | head`) ends a tool through SIGPIPE: status 141 in the shell.

// An error with a location. `where` is "file:line", "file" or empty.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string where, const std::string& what)
      : std::runtime_error(what), code_(code), where_(std::move(where)) {}
  ExitCode code() const { return code_; }
  const std::string& where() const { return where_; }

 private:
  ExitCode code_;
  std::string where_;
};

// Shorthands for the common cases.
[[noreturn]] void fail_input(const std::string& file, uint64_t line, const std::string& what);
[[noreturn]] void fail_input(const std::string& where, const std::string& what);
[[noreturn]] void fail_io(const std::string& file, const std::string& what);
[[noreturn]] void fail_usage(const std::string& what);
[[noreturn]] void fail(const std::string& what);

std::string location(const std::string& file, uint64_t line);

// The name every message starts with; set once by the tool's main.
void set_program_name(std::string name);
const std::string& program_name();

// `text` with each control character written as an escape (\n, \t, \x1b):
// what a message or a text report echoes from an input never moves the
// cursor, rings, or starts a line of its own.
std::string printable(std::string_view text);

// The most of an input a message quotes: longer text is cut to this prefix.
inline constexpr size_t kQuotedBytes = 200;
// `text` as a message quotes an input: 'text', escaped (printable); text
// longer than kQuotedBytes is cut to its first kQuotedBytes, followed by
// its length ('prefix...' (10485760 bytes)), so that a message stays one
// short line whatever the input holds.
std::string quoted_input(std::string_view text);
// The same without the quotes, for a name a message writes as it is.
std::string bounded_input(std::string_view text);

// The longest message print_error and warn write: the middle of a longer
// one (an input quoted without quoted_input) is left out, with its length.
inline constexpr size_t kLongestMessage = 2048;

// "tool: where: message" on stderr, escaped (printable).
void print_error(const Error& e);
// "tool: where: warning: message" on stderr, unless --quiet.
void warn(const std::string& where, const std::string& what);
void set_quiet(bool quiet);
bool quiet();

}  // namespace sasskit
