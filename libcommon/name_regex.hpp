// A POSIX extended regular expression (regex(7)) that says whether it finds
// a match in a text, in time linear in the text: the expression becomes a
// Thompson automaton whose set of live states advances one byte at a time,
// so no pattern can make a long input take exponential time (glibc's
// regexec took 14.7 s for (a+)+$ against a 30 kB kernel name). The text is
// data: any byte, NUL included, is only compared.
//
// Supported: literals, `.`, bracket expressions (ranges, `^`, [:class:],
// [=c=], [.c.]), `^` and `$` (start and end of the text), `|`, `( )`, `*`,
// `+`, `?`, `{m}`, `{m,}`, `{m,n}`, `{,n}` (m, n <= 255), `\` before any character
// (a literal), and GNU's \w \W \s \S. Back-references and GNU's word
// anchors are refused: they are not regular.
#pragma once

#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sasskit {

class NameRegex {
 public:
  // Throws a usage error saying what is wrong with `expression`.
  explicit NameRegex(std::string_view expression);

  // Whether the expression matches some part of `text`.
  bool search(std::string_view text) const;

  // A ceiling on the automaton's states, so that nested counts such as
  // (a{255}){255} cannot exhaust memory: past it the expression is refused.
  static constexpr size_t kMaxStates = 1u << 16;

 private:
  enum class Kind : uint8_t { Bytes, Split, Begin, End, Match };
  struct State {
    Kind kind = Kind::Match;
    int out = -1, out2 = -1;  // next states (out2: Split only)
    std::bitset<256> bytes;   // Bytes: the bytes it consumes
  };
  friend class NameRegexCompiler;

  // What one search() keeps between the positions of its text: the states
  // marked at the current position (mark == generation) and the stack of
  // add(), kept so that neither is allocated per byte.
  struct Scan {
    std::vector<uint32_t> mark;
    uint32_t generation = 1;
    std::vector<int> todo;
  };
  void add(std::vector<int>& set, Scan& scan, int state, size_t at, size_t size, bool& matched) const;

  std::vector<State> states_;
  int start_ = -1;
};

}  // namespace sasskit
