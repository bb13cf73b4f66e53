#include "libcommon/name_regex.hpp"

#include <cctype>
#include <utility>

#include "libcommon/diag.hpp"

namespace sasskit {

namespace {

using ByteSet = std::bitset<256>;

// The parsed expression.
struct Node {
  enum class Kind { Bytes, Begin, End, Concat, Alternation, Repeat } kind = Kind::Concat;
  ByteSet bytes;              // ByteSet
  std::vector<Node> parts;  // Concat, Alternation; Repeat: the one repeated
  int min = 0, max = -1;    // Repeat: counts, max -1 = no limit
};

constexpr int kMaxCount = 255;  // RE_DUP_MAX, as glibc

ByteSet byte_class(std::string_view name) {
  ByteSet b;
  for (int c = 0; c < 256; ++c) {
    const bool in = name == "alpha"   ? std::isalpha(c)
                    : name == "digit" ? std::isdigit(c)
                    : name == "alnum" ? std::isalnum(c)
                    : name == "upper" ? std::isupper(c)
                    : name == "lower" ? std::islower(c)
                    : name == "space" ? std::isspace(c)
                    : name == "blank" ? std::isblank(c)
                    : name == "punct" ? std::ispunct(c)
                    : name == "print" ? std::isprint(c)
                    : name == "graph" ? std::isgraph(c)
                    : name == "cntrl" ? std::iscntrl(c)
                    : name == "xdigit" ? std::isxdigit(c)
                                       : (fail_usage("unknown character class [:" + std::string(name) + ":]"), false);
    b[c] = in;
  }
  return b;
}

// Recursive descent over the expression's text.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Node parse() {
    Node n = alternation();
    if (pos_ < text_.size()) fail_usage("unmatched )");
    return n;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  Node alternation() {
    Node first = branch();
    if (at_end() || peek() != '|') return first;
    Node alt{.kind = Node::Kind::Alternation};
    alt.parts.push_back(std::move(first));
    while (!at_end() && peek() == '|') {
      ++pos_;
      alt.parts.push_back(branch());
    }
    return alt;
  }

  Node branch() {
    Node concat{.kind = Node::Kind::Concat};
    while (!at_end() && peek() != '|' && !(peek() == ')' && depth_ > 0)) concat.parts.push_back(piece());
    return concat;
  }

  Node piece() {
    Node n = atom();
    while (!at_end()) {
      const char c = peek();
      int min = 0, max = -1;
      if (c == '*') {
        ++pos_;
      } else if (c == '+') {
        ++pos_, min = 1;
      } else if (c == '?') {
        ++pos_, max = 1;
      } else if (c == '{') {  // as glibc: a '{' after an atom starts a count, or is an error
        ++pos_;
        interval(min, max);
      } else {
        break;
      }
      if (n.kind == Node::Kind::Begin || n.kind == Node::Kind::End)
        fail_usage(std::string("nothing to repeat before ") + c);
      Node repeat{.kind = Node::Kind::Repeat, .min = min, .max = max};
      repeat.parts.push_back(std::move(n));
      n = std::move(repeat);
    }
    return n;
  }

  int count() {
    int v = 0;
    if (at_end() || !std::isdigit(static_cast<unsigned char>(peek()))) fail_usage("bad repetition count");
    while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
      v = v * 10 + (text_[pos_++] - '0');
      if (v > kMaxCount) fail_usage("repetition count above " + std::to_string(kMaxCount));
    }
    return v;
  }

  // After '{': "m}", "m,}", "m,n}" or ",n}" (m = 0).
  void interval(int& min, int& max) {
    min = max = !at_end() && peek() == ',' ? 0 : count();
    if (!at_end() && peek() == ',') {
      ++pos_;
      max = !at_end() && peek() == '}' ? -1 : count();
    }
    if (at_end() || peek() != '}') fail_usage("unmatched {");
    ++pos_;
    if (max >= 0 && max < min) fail_usage("bad repetition count: {" + std::to_string(min) + "," + std::to_string(max) + "}");
  }

  static Node bytes(ByteSet b) { return Node{.kind = Node::Kind::Bytes, .bytes = b}; }
  static Node byte(unsigned char c) {
    ByteSet b;
    b[c] = true;
    return bytes(b);
  }

  Node atom() {
    const char c = text_[pos_++];
    switch (c) {
      case '(': {
        ++depth_;
        Node inner = alternation();
        --depth_;
        if (at_end()) fail_usage("unmatched (");
        ++pos_;
        return inner;
      }
      case ')':
        fail_usage("unmatched )");
      case '*':
      case '+':
      case '?':
      case '{':
        fail_usage(std::string("nothing to repeat before ") + c);
      case '.':
        return bytes(ByteSet().set());
      case '^':
        return Node{.kind = Node::Kind::Begin};
      case '$':
        return Node{.kind = Node::Kind::End};
      case '[':
        return bytes(bracket());
      case '\\':
        return escaped();
      default:
        return byte(static_cast<unsigned char>(c));
    }
  }

  Node escaped() {
    if (at_end()) fail_usage("trailing backslash");
    const char c = text_[pos_++];
    if (c >= '1' && c <= '9') fail_usage("back-references (\\" + std::string(1, c) + ") are not supported");
    if (c == 'w' || c == 'W') {
      ByteSet b = byte_class("alnum");
      b['_'] = true;
      return bytes(c == 'w' ? b : ~b);
    }
    if (c == 's' || c == 'S') return bytes(c == 's' ? byte_class("space") : ~byte_class("space"));
    if (std::string_view("bB<>`'").find(c) != std::string_view::npos)
      fail_usage("the anchor \\" + std::string(1, c) + " is not supported");
    return byte(static_cast<unsigned char>(c));
  }

  // One element of a bracket expression: a byte, or [=c=] / [.c.].
  unsigned char bracket_byte() {
    if (pos_ + 1 < text_.size() && peek() == '[' && (text_[pos_ + 1] == '=' || text_[pos_ + 1] == '.')) {
      const char delimiter = text_[pos_ + 1];
      const size_t close = text_.find(std::string{delimiter, ']'}, pos_ + 2);
      if (close != pos_ + 3) fail_usage("only single characters are supported in [=c=] and [.c.]");
      const unsigned char c = static_cast<unsigned char>(text_[pos_ + 2]);
      pos_ = close + 2;
      return c;
    }
    return static_cast<unsigned char>(text_[pos_++]);
  }

  // After '[': up to and including the closing ']'.
  ByteSet bracket() {
    ByteSet b;
    const bool negated = !at_end() && peek() == '^';
    if (negated) ++pos_;
    bool first = true;
    while (true) {
      if (at_end()) fail_usage("unmatched [");
      if (peek() == ']' && !first) break;
      first = false;
      if (text_.substr(pos_, 2) == "[:") {
        const size_t close = text_.find(":]", pos_ + 2);
        if (close == std::string_view::npos) fail_usage("unmatched [:");
        b |= byte_class(text_.substr(pos_ + 2, close - pos_ - 2));
        pos_ = close + 2;
        continue;
      }
      const unsigned char lo = bracket_byte();
      unsigned char hi = lo;
      if (pos_ + 1 < text_.size() && peek() == '-' && text_[pos_ + 1] != ']') {
        ++pos_;
        hi = bracket_byte();
        if (hi < lo) fail_usage("invalid range end in [...]");
      }
      for (int c = lo; c <= hi; ++c) b[c] = true;
    }
    ++pos_;
    return negated ? ~b : b;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

// Thompson's construction: each node becomes a fragment, a start state and
// the outgoing edges still to be joined to what follows.
class NameRegexCompiler {
 public:
  explicit NameRegexCompiler(std::vector<NameRegex::State>& states) : states_(states) {}

  struct Fragment {
    int start;
    std::vector<int*> dangling;
  };

  int compile(const Node& root) {
    Fragment f = fragment(root);
    const int match = add(NameRegex::Kind::Match);
    join(f, match);
    return f.start;
  }

 private:
  using Kind = NameRegex::Kind;

  int add(Kind kind) {
    if (states_.size() >= NameRegex::kMaxStates)
      fail_usage("the expression is too large (over " + std::to_string(NameRegex::kMaxStates) + " states)");
    states_.push_back({.kind = kind});
    return static_cast<int>(states_.size() - 1);
  }
  // Pointers into states_ stay valid: it is reserved to kMaxStates.
  int* out(int s) { return &states_[s].out; }
  int* out2(int s) { return &states_[s].out2; }
  static void join(Fragment& f, int next) {
    for (int* edge : f.dangling) *edge = next;
    f.dangling.clear();
  }
  Fragment single(Kind kind) {
    const int s = add(kind);
    return {s, {out(s)}};
  }

  Fragment sequence(const std::vector<Node>& parts) {
    if (parts.empty()) return single(Kind::Split);  // the empty expression: one state that consumes nothing
    Fragment whole = fragment(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
      Fragment next = fragment(parts[i]);
      join(whole, next.start);
      whole.dangling = std::move(next.dangling);
    }
    return whole;
  }

  Fragment either(const std::vector<Node>& parts) {
    Fragment whole = fragment(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
      Fragment next = fragment(parts[i]);
      const int split = add(Kind::Split);
      states_[split].out = whole.start;
      states_[split].out2 = next.start;
      whole.start = split;
      whole.dangling.insert(whole.dangling.end(), next.dangling.begin(), next.dangling.end());
    }
    return whole;
  }

  // x{min,max}: min copies of x, then x* or (max - min) copies of x?.
  Fragment repeat(const Node& n) {
    const Node& x = n.parts[0];
    Fragment whole = single(Kind::Split);
    auto append = [&](Fragment next) {
      join(whole, next.start);
      whole.dangling = std::move(next.dangling);
    };
    for (int i = 0; i < n.min; ++i) append(fragment(x));
    const int optional = n.max < 0 ? 1 : n.max - n.min;
    for (int i = 0; i < optional; ++i) {
      const int split = add(Kind::Split);
      Fragment body = fragment(x);
      states_[split].out = body.start;
      if (n.max < 0) {
        join(body, split);  // loop back: x*
        append({split, {out2(split)}});
      } else {
        body.dangling.push_back(out2(split));
        append({split, std::move(body.dangling)});
      }
    }
    return whole;
  }

  Fragment fragment(const Node& n) {
    switch (n.kind) {
      case Node::Kind::Bytes: {
        Fragment f = single(Kind::Bytes);
        states_[f.start].bytes = n.bytes;
        return f;
      }
      case Node::Kind::Begin:
        return single(Kind::Begin);
      case Node::Kind::End:
        return single(Kind::End);
      case Node::Kind::Concat:
        return sequence(n.parts);
      case Node::Kind::Alternation:
        return either(n.parts);
      case Node::Kind::Repeat:
        return repeat(n);
    }
    return single(Kind::Split);
  }

  std::vector<NameRegex::State>& states_;
};

NameRegex::NameRegex(std::string_view expression) {
  const Node root = Parser(expression).parse();
  states_.reserve(kMaxStates);
  start_ = NameRegexCompiler(states_).compile(root);
  states_.shrink_to_fit();
}

// Adds `state` and the states it reaches without consuming a byte, at
// position `at` of a text of `size` bytes; with an explicit stack, since a
// chain of empty steps can be as long as the automaton.
void NameRegex::add(std::vector<int>& set, Scan& scan, int state, size_t at, size_t size, bool& matched) const {
  std::vector<int>& todo = scan.todo;
  todo.assign(1, state);
  while (!todo.empty()) {
    const int s = todo.back();
    todo.pop_back();
    if (s < 0 || scan.mark[s] == scan.generation) continue;
    scan.mark[s] = scan.generation;
    const State& st = states_[s];
    switch (st.kind) {
      case Kind::Bytes:
        set.push_back(s);
        break;
      case Kind::Split:
        todo.push_back(st.out2);
        todo.push_back(st.out);
        break;
      case Kind::Begin:
        if (at == 0) todo.push_back(st.out);
        break;
      case Kind::End:
        if (at == size) todo.push_back(st.out);
        break;
      case Kind::Match:
        matched = true;
        break;
    }
  }
}

bool NameRegex::search(std::string_view text) const {
  std::vector<int> live, next;
  Scan scan;
  scan.mark.assign(states_.size(), 0);
  bool matched = false;
  for (size_t at = 0;; ++at) {
    add(live, scan, start_, at, text.size(), matched);  // a match may start here
    if (matched) return true;
    if (at == text.size()) return false;
    ++scan.generation;
    next.clear();
    const unsigned char c = static_cast<unsigned char>(text[at]);
    for (int s : live)
      if (states_[s].bytes[c]) add(next, scan, states_[s].out, at + 1, text.size(), matched);
    std::swap(live, next);
  }
}

}  // namespace sasskit
