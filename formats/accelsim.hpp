// Accel-Sim SASS trace text: kernelslist.g and kernel-N.traceg (tracer
// versions 3, 4 and 5; .xz and .gz read transparently), read and written.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "formats/records.hpp"
#include "formats/trace.hpp"

namespace sasskit::stream {
class PayloadReader;
}

namespace sasskit::accelsim {

namespace detail {
struct RenderedInst;
}

// One line of kernelslist.g, in order.
using ListEntry = std::variant<Memcpy, std::string /* kernel trace file name */>;

// A name that is safe to create inside an output directory: a single file
// name, never a path ('/', "." and ".."), with no control characters.
bool is_plain_file_name(std::string_view name);

// Reads kernelslist.g. `path` names it in messages. Kernel trace names
// must be plain file names (is_plain_file_name).
std::vector<ListEntry> read_kernel_list(std::istream& in, const std::string& path);
void write_kernel_list(std::ostream& out, const std::vector<ListEntry>& entries);

// Receives a kernel trace as it is read, in file order: the header once,
// then per CTA the instruction-table entries it introduced (cumulative, as
// in the stream) followed by the CTA. Memory stays bounded by one CTA.
struct KernelSink {
  std::function<void(const KernelInfo&)> kernel;
  std::function<void(const InstTable&)> insts;  // only called with new entries
  // May take the CTA's columns, swapping them with others of its own: the
  // reader reuses what it gets back.
  std::function<void(CtaTrace&)> cta;
};

// Reads one kernel-N.traceg, post-processed or raw (formats/ACCELSIM.md).
// KernelInfo::trace_file is set to the file name of `path`. Malformed input
// throws BadInput "file:line: expected ..., found ...". A raw trace holds
// the whole kernel in memory (its lines interleave thread blocks). With
// `threads` > 1 a post-processed trace's thread blocks are parsed on that
// many threads, pieces of text at a time: the sink gets the same calls, and
// a fault the same message after the same thread blocks, as with one; the
// text of the largest thread block is then held in memory.
void read_kernel_trace(std::istream& in, const std::string& path, const KernelSink& sink, unsigned threads = 1);

// Writes one kernel-N.traceg in the layout of tracer version
// `kernel.tracer_version`, so that reading it back gives equal records.
// The header is written on construction, each thread block by cta().
class KernelTraceWriter {
 public:
  KernelTraceWriter(std::ostream& out, const KernelInfo& kernel);
  ~KernelTraceWriter();
  void insts(const InstTable& slice);  // entries must arrive in index order
  // Checks the CTA against the table (stream::validate_cta) and writes it.
  void cta(const CtaTrace& cta);
  // Writes a CTA straight from a stream cta record's compact payload
  // (formats/cta_payload.hpp), without decoding it into a CtaTrace. False,
  // with nothing written, where decoding, checking and writing it with
  // cta(CtaTrace) could refuse it or write it in more than one piece: a
  // damaged payload, one that disagrees with the table, addresses its mode
  // cannot write, or text past the flush size. The caller then does that,
  // so each refusal keeps the decoder's message, in the same order.
  bool cta(const Dim3& cta, std::string_view payload);

 private:
  // Room for `size` more characters at end().
  char* room(size_t size) { return buf_.size() - used_ >= size ? end() : grow(size); }
  char* grow(size_t size);
  char* end() { return buf_.data() + used_; }
  void set_end(char* end) { used_ = static_cast<size_t>(end - buf_.data()); }
  void begin_cta(const Dim3& cta);
  void begin_warp(uint32_t warp_id, size_t insts);
  // One warp of cta(Dim3, payload); false where that refuses the CTA.
  bool warp_from_payload(stream::PayloadReader& in);
  void end_cta();
  void flush();

  std::ostream& out_;
  KernelInfo kernel_;
  std::vector<StaticInst> table_;
  std::vector<detail::RenderedInst> rendered_;  // each entry's fixed text
  size_t longest_line_ = 0;  // of any entry, with the longest addresses
  std::unique_ptr<stream::PayloadReader> payload_;  // cta(Dim3, payload)'s, reused
  std::vector<char> buf_;  // text not yet written: from the current CTA's start
  size_t used_ = 0;
};

}  // namespace sasskit::accelsim
