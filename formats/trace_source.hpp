// Reading a trace from wherever it is — an Accel-Sim directory or
// kernelslist.g, or a sasskit stream — as one sequence of events, so tools
// that convert traces need not care about the source.
#pragma once

#include <cstdint>
#include <string>

#include "formats/kernel_selector.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "formats/stream.hpp"
#include "libcommon/io.hpp"

namespace sasskit {

// Receives a trace in order. Records of a stream that are not trace records
// (sched, cache, ...) arrive through other().
class TraceHandler {
 public:
  virtual ~TraceHandler() = default;
  virtual void memcpy(const Memcpy&) {}
  virtual void kernel(const KernelInfo&) = 0;
  virtual void insts(const InstTable&) = 0;
  virtual void cta(const CtaTrace&) = 0;
  // A CTA whose columns the handler may take, swapping them with others of
  // its own (a handler that keeps CTAs saves a copy); by default cta().
  virtual void take_cta(CtaTrace& c) { cta(c); }
  // A stream's cta record, as read; by default decoded (and checked against
  // the kernel's table) for cta(). A handler that copies records passes the
  // bytes on instead.
  virtual void cta_record(const stream::CtaRecord& c) {
    c.decode(decoded_);
    cta(decoded_);
  }
  virtual void other(const stream::Record&) {}
  // A stream member other than the first starts (formats/STREAM.md,
  // Members); member 0's header is the source's upstream header. `where`
  // names it for messages ("FILE: member M").
  virtual void next_member(const stream::Header&, const std::string& /*where*/) {}

 private:
  CtaTrace decoded_;  // cta_record's, reused from CTA to CTA
};

enum class TraceFormat { AccelsimDir, Stream, Archive };

// Whether `path` names an Accel-Sim trace: a directory or a kernelslist.g.
bool is_accelsim_path(const std::string& path);
// Detects what `path` holds: a directory or kernelslist.g (Accel-Sim), the
// stream magic, or the archive magic.
TraceFormat detect_trace_format(const std::string& path);
// The same for an opened input: reads its first bytes into `head`, which
// the caller must treat as the start of the input (see stream::Reader).
TraceFormat detect_trace_format(Input& in, std::string& head);

// Reads an Accel-Sim trace (directory or kernelslist.g): the kernels
// `selection` keeps. Kernel files are looked up as listed, then with .xz and
// .gz appended. Thread blocks are parsed on `threads` threads
// (accelsim::read_kernel_trace).
void read_accelsim(const std::string& path, KernelSelector& selection, TraceHandler& handler,
                   unsigned threads = 1);

// Reads a stream's records after its header, every member of it, through
// the kernel layer (formats/kernel_stream.hpp): the kernels `selection`
// keeps, and every record about no kernel. `reader` is already open.
void read_stream(stream::Reader& reader, KernelSelector& selection, TraceHandler& handler);

}  // namespace sasskit
