// The parts of reading a kernel-N.traceg's thread blocks (formats/ACCELSIM.md)
// that the serial reader (accelsim_reader.cpp) and the threaded one
// (accelsim_pieces.cpp) share: the instruction table, and a parser of thread
// blocks over lines from a stream (LineReader) or from memory (ViewLines).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/accelsim.hpp"
#include "formats/accelsim_text.hpp"
#include "formats/count_checks.hpp"

namespace sasskit::accelsim::detail {

// The kernel's static instruction table: each distinct instruction once,
// with the text of its body (parse_body) as first read, so that a line
// repeating that text is matched without parsing it again.
class TableBuilder {
 public:
  // The entry with `head`'s PC and line whose body text `f` goes on with,
  // its text passed over; none if there is no such entry.
  std::optional<uint32_t> match_body(const StaticInst& head, Fields& f) const {
    auto it = first_by_pc_.find(head.pc);
    if (it == first_by_pc_.end()) return std::nullopt;
    for (uint32_t i = it->second; i != kNone; i = next_same_pc_[i])
      if (table_[i].line == head.line && f.skip_text(body_text_[i])) return i;
    return std::nullopt;
  }
  size_t size() const { return table_.size(); }
  const StaticInst& operator[](uint32_t i) const { return table_[i]; }
  const std::string& body_text(uint32_t i) const { return body_text_[i]; }
  DeltaMemo& deltas(uint32_t i) { return deltas_[i]; }

  uint32_t intern(const StaticInst& inst, std::string_view body_text) {
    auto [it, inserted] = first_by_pc_.try_emplace(inst.pc, static_cast<uint32_t>(table_.size()));
    if (!inserted) {
      uint32_t i = it->second;
      for (;;) {
        if (table_[i] == inst) return i;
        if (next_same_pc_[i] == kNone) break;
        i = next_same_pc_[i];
      }
      next_same_pc_[i] = static_cast<uint32_t>(table_.size());
    }
    table_.push_back(inst);
    body_text_.emplace_back(body_text);
    deltas_.emplace_back();
    next_same_pc_.push_back(kNone);
    return static_cast<uint32_t>(table_.size() - 1);
  }

  // Hands the entries added since the last call to the sink, then `cta`.
  void give(CtaTrace& cta, const KernelSink& sink) {
    if (announced_ < table_.size()) {
      InstTable slice{cta.kernel_id, static_cast<uint32_t>(announced_),
                      {table_.begin() + static_cast<ptrdiff_t>(announced_), table_.end()}};
      announced_ = table_.size();
      if (sink.insts) sink.insts(slice);
    }
    if (sink.cta) sink.cta(cta);
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<StaticInst> table_;
  std::vector<std::string> body_text_;
  std::vector<DeltaMemo> deltas_;  // each entry's last base+delta deltas
  std::unordered_map<uint64_t, uint32_t> first_by_pc_;
  std::vector<uint32_t> next_same_pc_;
  size_t announced_ = 0;
};

// Warps whose columns keep their capacity from one thread block to the
// next, so that reading a block allocates only where it outgrows the last.
class WarpPool {
 public:
  WarpTrace& add_to(std::vector<WarpTrace>& warps) {
    if (spare_.empty()) return warps.emplace_back();
    WarpTrace& w = warps.emplace_back(std::move(spare_.back()));
    spare_.pop_back();
    w.warp_id = 0;
    w.inst.clear();
    w.mask.clear();
    w.addr_mode.clear();
    w.addrs.clear();
    w.addr_extra.clear();
    return w;
  }
  void take_back(std::vector<WarpTrace>& warps) {
    for (WarpTrace& w : warps) spare_.push_back(std::move(w));
    warps.clear();
  }

 private:
  std::vector<WarpTrace> spare_;
};

// Where the first field of `line` starts: its size if it is blank.
inline size_t first_field(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

inline bool is_blank(std::string_view line) { return first_field(line) == line.size(); }

// Instruction lines start with a number (line, PC or thread block id);
// structural lines with a word or '#', none of which is a hex digit.
inline bool is_instruction(std::string_view line) {
  const size_t i = first_field(line);
  return i < line.size() && kHexDigit[static_cast<unsigned char>(line[i])] >= 0;
}

// Whether `line` is "KEY = VALUE" (KEY may be several words); sets `value`.
inline bool keyword_value(std::string_view line, std::string_view key, std::string_view& value) {
  Fields f(line);
  Fields probe(key);
  for (std::string_view word = probe.next(); !word.empty(); word = probe.next())
    if (f.next() != word) return false;
  if (f.next() != "=") return false;
  value = f.next();
  return !value.empty() && f.at_end();
}

inline bool parse_triplet(std::string_view s, Dim3& d) {
  size_t a = s.find(','), b = a == std::string_view::npos ? a : s.find(',', a + 1);
  return b != std::string_view::npos && parse_dec(s.substr(0, a), d.x) &&
         parse_dec(s.substr(a + 1, b - a - 1), d.y) && parse_dec(s.substr(b + 1), d.z);
}

inline std::string dim_text(const Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}


// The kernel's thread blocks read so far, to refuse one read twice.
class BlocksRead {
 public:
  // Refuses `cta` (its 'thread block' line number `line`) if it was read before.
  void check_new(const Dim3& cta, const Dim3& grid, const std::string& path, uint64_t line);

 private:
  stream::CtaIndexSet read_;
};

// Reads thread blocks from `lines` (LineReader or ViewLines), interning
// their instructions in `table`. Messages name `path` and the line.
template <class Lines>
class CtaParser {
 public:
  CtaParser(Lines& lines, const std::string& path, const KernelInfo& kernel, TableBuilder& table)
      : lines_(lines), path_(path), kernel_(kernel), layout_(layout_of(kernel)), table_(table) {}

  Place here() const { return {path_, lines_.number()}; }
  std::string_view line() const { return line_; }

  // The next non-blank line into line(); false at end of input.
  bool next_line() {
    if (unread_) {
      unread_ = false;
      return true;
    }
    while (lines_.next(line_))
      if (!is_blank(line_)) return true;
    return false;
  }
  // Makes `line` (the line last read from `lines`) the next one next_line gives.
  void unread(std::string_view line) {
    line_ = line;
    unread_ = true;
  }

  // Whether a thread block starts at the next non-blank line, before
  // `stop` (a position in the text; nullptr: none): refuses a line there
  // that is not '#BEGIN_TB'.
  bool next_cta(const char* stop = nullptr) {
    if (!next_line() || (stop && line_.data() >= stop)) return false;
    if (!line_.starts_with("#BEGIN_TB")) expected(here(), "'#BEGIN_TB'", quoted(line_));
    return true;
  }

  // Reads the thread block that next_cta found into `cta`. Once its
  // 'thread block' line is read and inside the grid, calls
  // block_read(cta.cta, that line's number), which may refuse it.
  template <class BlockRead>
  void read_cta(CtaTrace& cta, const BlockRead& block_read) {
    warps_.take_back(cta.warps);
    cta.kernel_id = kernel_.id;
    std::string_view v;
    if (!next_line()) expected(here(), "'thread block = X,Y,Z'", "end of file");
    if (!keyword_value(line_, "thread block", v) || !parse_triplet(v, cta.cta))
      expected(here(), "'thread block = X,Y,Z'", quoted(line_));
    const Dim3& g = kernel_.grid;
    if (cta.cta.x >= g.x || cta.cta.y >= g.y || cta.cta.z >= g.z)
      expected(here(), "a thread block inside the grid " + dim_text(g), dim_text(cta.cta));
    block_read(cta.cta, lines_.number());
    const std::string block = "thread block " + dim_text(cta.cta);
    warp_ids_.clear();
    for (;;) {
      if (!next_line())
        expected(here(), "'warp = N' or '#END_TB' to finish " + block, "end of file");
      if (line_.starts_with("#END_TB")) break;
      WarpTrace& w = warps_.add_to(cta.warps);
      if (!keyword_value(line_, "warp", v) || !parse_dec(v, w.warp_id))
        expected(here(), "'warp = N' or '#END_TB' in " + block, quoted(line_));
      if (!warp_ids_.insert(w.warp_id))
        fail_input(path_, lines_.number(), "warp " + std::to_string(w.warp_id) + " appears twice in " + block);
      uint64_t count = 0;
      if (!next_line()) expected(here(), "'insts = N'", "end of file");
      if (!keyword_value(line_, "insts", v) || !parse_dec(v, count))
        expected(here(), "'insts = N'", quoted(line_));
      read_warp(w, count, block);
    }
  }

  // Reads thread blocks from the next non-blank line to the end of input,
  // each to `sink` (table.give).
  void read_rest(BlocksRead& blocks, const KernelSink& sink) {
    CtaTrace cta;
    auto check_new = [&](const Dim3& block, uint64_t line) { blocks.check_new(block, kernel_.grid, path_, line); };
    while (next_cta()) {
      read_cta(cta, check_new);
      table_.give(cta, sink);
    }
  }

  // Reads the raw layout, whose first line is line(), to the end: every
  // thread block, in index order, to `sink` (table.give).
  void read_raw(const KernelSink& sink) {
    uint64_t warps = (kernel_.block.volume() + 31) / 32;
    if (warps > kMaxWarpsPerCta)
      expected(here(), "at most " + std::to_string(kMaxWarpsPerCta * 32) + " threads per block",
               std::to_string(kernel_.block.volume()));
    // Raw lines interleave the thread blocks, so all of them are held
    // until the end, then given out in index order as post-processing does.
    std::map<uint64_t, CtaTrace> ctas;
    const Dim3& g = kernel_.grid;
    do {
      if (!is_instruction(line_))
        expected(here(), "a raw instruction line 'TB_X TB_Y TB_Z WARP PC ...'", quoted(line_));
      Fields f(line_);
      uint32_t ids[4];
      for (auto& id : ids)
        if (!parse_dec(f.next(), id))
          expected(here(), "thread block x, y, z and warp ids at the start of a raw line",
                   quoted(line_));
      Dim3 tb{ids[0], ids[1], ids[2]};
      if (tb.x >= g.x || tb.y >= g.y || tb.z >= g.z)
        expected(here(), "a thread block inside the grid " + dim_text(g), dim_text(tb));
      if (ids[3] >= warps)
        expected(here(), "a warp id below " + std::to_string(warps), std::to_string(ids[3]));
      CtaTrace& cta = ctas[(uint64_t(tb.z) * g.y + tb.y) * g.x + tb.x];
      if (cta.warps.empty()) {
        cta.kernel_id = kernel_.id;
        cta.cta = tb;
        cta.warps.resize(warps);
        for (uint32_t i = 0; i < warps; ++i) cta.warps[i].warp_id = i;
      }
      add_instruction(f, cta.warps[ids[3]]);
    } while (next_line());
    for (auto& [index, cta] : ctas) table_.give(cta, sink);
  }

 private:
  // Flattened: its lines are most of the time, and the compiler left the
  // columns' push_back out of line in one of the two instantiations.
  [[gnu::flatten]] void read_warp(WarpTrace& w, uint64_t count, const std::string& block) {
    const uint64_t insts_line = lines_.number();
    auto want = [&] {
      return std::to_string(count) + " instruction lines in warp " + std::to_string(w.warp_id) +
             " of " + block + " ('insts = " + std::to_string(count) + "' at line " +
             std::to_string(insts_line) + ")";
    };
    uint32_t after = kWarpStart;
    for (uint64_t i = 0; i < count; ++i) {
      if (!next_line()) expected(here(), want(), std::to_string(i) + " before end of file");
      if (!is_instruction(line_)) expected(here(), want(), std::to_string(i));
      after = add_warp_line(after, w);
    }
    if (next_line()) {
      if (is_instruction(line_)) expected(here(), want(), "more");
      unread_ = true;
    }
  }

  // Adds the instruction of line_ to `w`, the warp's previous line being
  // table entry `after` - 1 (kWarpStart: none); returns the value of
  // `after` for the next line. A line that repeats the text of the one that
  // last followed the same entry, without a memory access, is that
  // instruction and mask again.
  uint32_t add_warp_line(uint32_t after, WarpTrace& w) {
    if (after < line_after_.size() && line_ == line_after_[after].text && lines_.terminated()) {
      const KnownLine& known = line_after_[after];
      w.inst.push_back(known.inst);
      w.mask.push_back(known.mask);
      return known.inst + 1;
    }
    Fields f(line_);
    const uint32_t inst = add_instruction(f, w);
    if (table_[inst].mem_width == 0) {
      if (after >= line_after_.size()) line_after_.resize(after + 1);
      KnownLine& known = line_after_[after];
      known.text.assign(line_);
      known.inst = inst;
      known.mask = w.mask.back();
    }
    return inst + 1;
  }

  // Returns the line's table index.
  uint32_t add_instruction(Fields& f, WarpTrace& w) {
    if (!lines_.terminated())
      expected(here(), "a complete instruction line", "end of file in the middle of the line");
    uint32_t mask = 0;
    parse_head(f, here(), layout_, scratch_, mask);
    const uint32_t inst = static_instruction(f, mask, w);
    w.inst.push_back(inst);
    w.mask.push_back(mask);
    return inst;
  }

  // The table index of the line's instruction, its head in scratch_; reads
  // the rest of the line, the addresses into `w`.
  uint32_t static_instruction(Fields& f, uint32_t mask, WarpTrace& w) {
    if (std::optional<uint32_t> same = table_.match_body(scratch_, f)) {
      const StaticInst& known = table_[*same];
      std::string_view imm =
          parse_tail(f, here(), layout_, known.mem_width, mask, w, &table_.deltas(*same));
      if (known.imm ? *known.imm == imm : imm.empty()) return *same;
      scratch_ = known;  // the same body with another immediate
      scratch_.imm.emplace(imm);
      const std::string body_text = table_.body_text(*same);
      return table_.intern(scratch_, body_text);
    }
    const char* body = f.upcoming();
    parse_body(f, here(), scratch_);
    const std::string_view body_text(body, static_cast<size_t>(f.position() - body));
    std::string_view imm = parse_tail(f, here(), layout_, scratch_.mem_width, mask, w);
    if (imm.empty()) scratch_.imm.reset();
    else scratch_.imm.emplace(imm);
    return table_.intern(scratch_, body_text);
  }

  Lines& lines_;
  const std::string& path_;
  const KernelInfo& kernel_;
  LineLayout layout_;
  TableBuilder& table_;
  std::string_view line_;
  bool unread_ = false;
  StaticInst scratch_;
  struct KnownLine {
    std::string text;
    uint32_t inst = 0, mask = 0;
  };
  static constexpr uint32_t kWarpStart = 0;
  std::vector<KnownLine> line_after_;  // by table index + 1, kWarpStart first
  WarpPool warps_;
  stream::WarpIdSet warp_ids_;  // of the thread block being read
};

// The size of the pieces of text read_in_pieces parses on the threads:
// small enough that a piece's thread blocks are still in a core's caches
// when they are packed.
inline constexpr size_t kTextPieceSize = size_t(256) << 10;

// Reads a post-processed kernel's thread blocks after its header on
// `threads` threads, in pieces of about `piece_size` bytes: the text from
// `first` (read from `in` already; its first line is number `lines_before`
// + 1), then `in`. Each thread block goes to `sink` (its new table entries
// first), interned in `table`, as the serial reader gives them, and input is
// refused with the serial reader's message after the thread blocks before
// the fault.
void read_in_pieces(std::istream& in, std::string_view first, uint64_t lines_before, const std::string& path,
                    const KernelInfo& kernel, TableBuilder& table, const KernelSink& sink, unsigned threads,
                    size_t piece_size);

// read_kernel_trace with pieces of `piece_size` bytes: tests and fuzzing cut
// small traces into many pieces.
void read_kernel_trace_in_pieces(std::istream& in, const std::string& path, const KernelSink& sink,
                                 unsigned threads, size_t piece_size);

}  // namespace sasskit::accelsim::detail
