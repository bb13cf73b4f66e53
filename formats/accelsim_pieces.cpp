// A post-processed kernel trace's thread blocks parsed on several threads
// (accelsim_parser.hpp, read_in_pieces). The text is cut before '#BEGIN_TB'
// lines into pieces of about a megabyte; each piece is parsed on a thread
// into a table of its own, numbered in order of first appearance in the
// piece; the main thread then takes the pieces in file order, interning
// each thread block's new entries into the kernel's table (so the table's
// order is the serial reader's: first appearance in the file), checking
// repeated thread blocks, and giving the blocks to the sink.
//
// A piece's text runs on to the end of the next piece's first line: a
// '#BEGIN_TB' line inside a thread block is a fault, and the serial reader
// reports it on that line, so the piece before needs it. The next piece
// parses from there as well, but its result is never used: the fault comes
// first in file order.
#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>

#include "formats/accelsim_parser.hpp"
#include "libcommon/parallel.hpp"

namespace sasskit::accelsim::detail {
namespace {

// Text held without a '#BEGIN_TB' line to cut at (one huge thread block, or
// input that is not a trace) is read on by one thread from there on, as the
// serial reader reads it: memory stays bounded (64 MiB with pieces of
// kTextPieceSize).
constexpr size_t kMostHeldPieces = 256;
constexpr std::string_view kCut = "\n#BEGIN_TB";

struct Piece {
  std::string_view text;  // to the end of the next piece's first line
  const char* end;        // where the next piece starts
};

// The text after a kernel's header, read from a stream and cut into pieces.
class TextPieces {
 public:
  TextPieces(std::istream& in, std::string_view first, size_t piece_size)
      : in_(in), piece_size_(piece_size), buf_(first.begin(), first.end()), size_(first.size()) {}

  enum class Cut { Pieces, Done, TooLong };

  // Up to `count` pieces of the text not cut yet, each of at least
  // piece_size_ bytes but the last of the input, and no more once they hold
  // `count` times that (pieces of large thread blocks are fewer). Their text
  // stays valid until the next call. TooLong: nothing could be cut within
  // kMostHeldPieces pieces' bytes; the text not cut is then rest().
  Cut next(size_t count, std::vector<Piece>& pieces) {
    pieces.clear();
    std::memmove(buf_.data(), buf_.data() + start_, size_ - start_);
    size_ -= start_;
    start_ = 0;
    if (size_ == 0 && eof_) return Cut::Done;
    fill((count + 1) * piece_size_);
    for (;;) {
      cut(count, pieces);
      if (eof_) {
        if (start_ < size_) add(pieces, size_);
        return Cut::Pieces;
      }
      if (!pieces.empty()) return Cut::Pieces;
      if (size_ >= kMostHeldPieces * piece_size_) return Cut::TooLong;
      fill(size_ + piece_size_);
    }
  }

  std::string_view rest() const { return {buf_.data() + start_, size_ - start_}; }

 private:
  // Reads on until `size` bytes are held or the input ends.
  void fill(size_t size) {
    if (buf_.size() < size) buf_.resize(size);
    while (!eof_ && size_ < size) {
      in_.read(buf_.data() + size_, static_cast<std::streamsize>(size - size_));
      const size_t got = static_cast<size_t>(in_.gcount());
      if (got < size - size_) eof_ = true;
      size_ += got;
    }
  }

  void cut(size_t count, std::vector<Piece>& pieces) {
    const std::string_view text(buf_.data(), size_);
    while (pieces.size() < count && start_ < count * piece_size_ && start_ + piece_size_ < text.size()) {
      const size_t at = text.find(kCut, start_ + piece_size_ - 1);
      // The next piece's first line must be held whole: the piece reads it.
      if (at == std::string_view::npos || text.find('\n', at + 1) == std::string_view::npos) return;
      add(pieces, at + 1);
    }
  }

  void add(std::vector<Piece>& pieces, size_t end) {
    const std::string_view text(buf_.data(), size_);
    const size_t line_end = std::min(text.find('\n', end), text.size() - 1) + 1;
    pieces.push_back({text.substr(start_, line_end - start_), text.data() + end});
    start_ = end;
  }

  std::istream& in_;
  const size_t piece_size_;
  std::vector<char> buf_;  // grown, never shrunk: its first size_ bytes are held
  size_t size_ = 0;
  size_t start_ = 0;  // where the text not cut yet starts
  bool eof_ = false;
};

// A thread block parsed from a piece, its instructions numbered in the
// piece's table.
struct ParsedCta {
  CtaTrace cta;
  uint64_t block_line = 0;  // of its 'thread block' line
  size_t table_size = 0;    // the piece's table after it
};

// What a piece's text holds. Line numbers count from the piece's start
// unless told where it starts: the lines before it are known only once the
// pieces before it are parsed, and are needed only in a message.
struct ParsedPiece {
  std::vector<ParsedCta> ctas;  // kept from batch to batch for their capacity
  size_t count = 0;
  TableBuilder table;
  uint64_t lines = 0;        // in the piece, without a fault
  std::exception_ptr error;  // the fault that ended the piece, if one did
  // The faulty thread block, when its 'thread block' line was read: the
  // serial reader refuses a repeated block before reading on.
  std::optional<std::pair<Dim3, uint64_t>> error_block;
};

void parse_piece(const Piece& piece, uint64_t lines_before, const std::string& path, const KernelInfo& kernel,
                 ParsedPiece& out) {
  out.count = 0;
  out.table = TableBuilder();
  out.error = nullptr;
  out.error_block.reset();
  ViewLines lines(piece.text, path, lines_before);
  CtaParser<ViewLines> parser(lines, path, kernel, out.table);
  try {
    while (parser.next_cta(piece.end)) {
      if (out.count == out.ctas.size()) out.ctas.emplace_back();
      ParsedCta& parsed = out.ctas[out.count];
      parser.read_cta(parsed.cta, [&](const Dim3& cta, uint64_t line) {
        parsed.block_line = line;
        out.error_block.emplace(cta, line);
      });
      out.error_block.reset();
      parsed.table_size = out.table.size();
      ++out.count;
    }
    // The next piece's first line, if it was read, is not this piece's.
    const bool next_read = parser.line().data() >= piece.end;
    out.lines = lines.number() - lines_before - (next_read ? 1 : 0);
  } catch (...) {
    out.error = std::current_exception();
  }
}

// Takes parsed pieces in file order into the kernel's table and the sink.
class PieceMerger {
 public:
  PieceMerger(const std::string& path, const KernelInfo& kernel, TableBuilder& table, BlocksRead& blocks,
              const KernelSink& sink)
      : path_(path), kernel_(kernel), table_(table), blocks_(blocks), sink_(sink) {}

  // `parsed` from `piece`, which starts after line `lines_before`; advances
  // that past it.
  void merge(ParsedPiece& parsed, const Piece& piece, uint64_t& lines_before) {
    to_kernel_.clear();
    same_numbers_ = true;
    for (size_t i = 0; i < parsed.count; ++i) {
      ParsedCta& p = parsed.ctas[i];
      blocks_.check_new(p.cta.cta, kernel_.grid, path_, lines_before + p.block_line);
      intern_up_to(parsed.table, p.table_size);
      if (!same_numbers_) renumber(p.cta);
      table_.give(p.cta, sink_);
    }
    if (parsed.error) refuse(piece, lines_before);
    lines_before += parsed.lines;
  }

 private:
  // Parses the faulty piece again, its lines numbered in the file, and
  // throws its fault (or refuses its faulty thread block as a repeat first).
  [[noreturn]] void refuse(const Piece& piece, uint64_t lines_before) {
    ParsedPiece again;
    parse_piece(piece, lines_before, path_, kernel_, again);
    if (again.error_block) blocks_.check_new(again.error_block->first, kernel_.grid, path_, again.error_block->second);
    std::rethrow_exception(again.error);
  }

  // The piece's entries below `size` into the kernel's table.
  void intern_up_to(const TableBuilder& local, size_t size) {
    for (size_t j = to_kernel_.size(); j < size; ++j) {
      const uint32_t i = table_.intern(local[static_cast<uint32_t>(j)], local.body_text(static_cast<uint32_t>(j)));
      same_numbers_ = same_numbers_ && i == j;
      to_kernel_.push_back(i);
    }
  }

  void renumber(CtaTrace& cta) const {
    for (WarpTrace& w : cta.warps)
      for (uint32_t& inst : w.inst) inst = to_kernel_[inst];
  }

  const std::string& path_;
  const KernelInfo& kernel_;
  TableBuilder& table_;
  BlocksRead& blocks_;
  const KernelSink& sink_;
  std::vector<uint32_t> to_kernel_;  // the piece's numbers -> the kernel's
  bool same_numbers_ = true;         // to_kernel_ is the identity
};

}  // namespace

void read_in_pieces(std::istream& in, std::string_view first, uint64_t lines_before, const std::string& path,
                    const KernelInfo& kernel, TableBuilder& table, const KernelSink& sink, unsigned threads,
                    size_t piece_size) {
  TextPieces text(in, first, piece_size);
  BlocksRead blocks;
  PieceMerger merger(path, kernel, table, blocks, sink);
  std::vector<Piece> pieces;
  std::vector<ParsedPiece> parsed;
  for (;;) {
    const TextPieces::Cut cut = text.next(size_t(2) * threads, pieces);
    if (cut == TextPieces::Cut::Done) return;
    if (cut == TextPieces::Cut::TooLong) {
      LineReader lines(in, path, text.rest(), lines_before);
      CtaParser<LineReader> parser(lines, path, kernel, table);
      parser.read_rest(blocks, sink);
      return;
    }
    if (parsed.size() < pieces.size()) parsed.resize(pieces.size());
    parallel_for(pieces.size(), threads, [&](size_t i) { parse_piece(pieces[i], 0, path, kernel, parsed[i]); });
    for (size_t i = 0; i < pieces.size(); ++i) merger.merge(parsed[i], pieces[i], lines_before);
  }
}

}  // namespace sasskit::accelsim::detail
