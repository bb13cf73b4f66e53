// Reading a kernel-N.traceg (formats/ACCELSIM.md): the header, then thread
// blocks in the post-processed layout (#BEGIN_TB ... #END_TB), or the
// tracer's raw layout whose lines start with thread block and warp ids.
#include <filesystem>

#include "formats/accelsim.hpp"
#include "formats/accelsim_parser.hpp"
#include "formats/kernel_stream.hpp"

namespace sasskit::accelsim {
using namespace detail;

namespace detail {

void BlocksRead::check_new(const Dim3& cta, const Dim3& grid, const std::string& path, uint64_t line) {
  // Inside the grid, checked by the parser with its own message.
  if (!read_.insert(stream::cta_linear_index(cta, grid, {}, location(path, line))))
    fail_input(path, line, "thread block " + dim_text(cta) + " appears twice in the trace");
}

}  // namespace detail

namespace {

class TraceReader {
 public:
  TraceReader(std::istream& in, const std::string& path, const KernelSink& sink, unsigned threads,
              size_t piece_size)
      : in_(in), lines_(in, path), path_(path), sink_(sink), threads_(threads), piece_size_(piece_size) {}

  void run() {
    std::string_view first;
    if (!read_header(first)) return;
    CtaParser<LineReader> parser(lines_, path_, kernel_, table_);
    parser.unread(first);
    if (is_instruction(first)) {
      parser.next_line();
      parser.read_raw(sink_);
      return;
    }
    if (threads_ > 1) {
      parser.next_cta();  // refuses a first line that is not '#BEGIN_TB', before the pieces
      read_in_pieces(in_, lines_.rest_from_last_line(), lines_.number() - 1, path_, kernel_, table_, sink_,
                     threads_, piece_size_);
      return;
    }
    BlocksRead blocks;
    parser.read_rest(blocks, sink_);
  }

 private:
  // Reads the header and hands it to the sink; false at end of file, else
  // `first` is the first line after it (not blank).
  bool read_header(std::string_view& first) {
    HeaderParser header(path_);
    bool more = false, ends_blank = false;
    std::string_view line;
    while ((more = lines_.next(line)) && is_header_line(line)) {
      header.add(line, lines_.number());
      ends_blank = is_blank(line);
    }
    kernel_ = header.finish({path_, lines_.number()}, more ? line : std::string_view());
    // The tracer ends its header with blank lines: a file that stops on a
    // header line was cut inside the header.
    if (!more && !ends_blank) expected({path_, lines_.number()}, "a blank line after the header", "end of file");
    if (path_ != "-" && path_ != "<stdin>")
      kernel_.trace_file = std::filesystem::path(path_).filename().string();
    if (sink_.kernel) sink_.kernel(kernel_);
    first = line;
    return more;
  }

  std::istream& in_;
  LineReader lines_;
  const std::string& path_;
  const KernelSink& sink_;
  unsigned threads_;
  size_t piece_size_;
  KernelInfo kernel_;
  TableBuilder table_;
};

}  // namespace

void read_kernel_trace(std::istream& in, const std::string& path, const KernelSink& sink, unsigned threads) {
  TraceReader(in, path, sink, threads, kTextPieceSize).run();
}

void detail::read_kernel_trace_in_pieces(std::istream& in, const std::string& path, const KernelSink& sink,
                                         unsigned threads, size_t piece_size) {
  TraceReader(in, path, sink, threads, piece_size).run();
}

}  // namespace sasskit::accelsim
