#include "compress.hpp"

#include <set>

#include "formats/trace_source.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit::compress {
namespace {

// Forwards the trace to the archive writer. Progress is the input's: each
// file read shows its share done and the time left (libcommon/io.hpp).
class ArchiveHandler : public TraceHandler {
 public:
  explicit ArchiveHandler(archive::ArchiveWriter& writer) : writer_(writer) {}
  void memcpy(const Memcpy& m) override { writer_.memcpy(m); }
  void kernel(const KernelInfo& k) override { writer_.kernel(k); }
  void insts(const InstTable& t) override { writer_.insts(t); }
  void cta(const CtaTrace& c) override { writer_.cta(c); }
  void next_member(const stream::Header&, const std::string& where) override {
    fail_input(where, "a concatenated stream (a second member follows): an archive holds one trace; "
                        "compress each member on its own");
  }
  void other(const stream::Record& r) override {
    if (dropped_.insert(r.type_name()).second)
      warn(r.where(), "'" + r.type_name() + "' records are not kept in the archive");
  }

 private:
  archive::ArchiveWriter& writer_;
  std::set<std::string> dropped_;
};

void read_any(const std::string& path, TraceHandler& handler) {
  // stdin is read once, so it is taken as a stream without probing.
  TraceFormat format = path == "-" ? TraceFormat::Stream : detect_trace_format(path);
  KernelSelector every_kernel;
  switch (format) {
    case TraceFormat::AccelsimDir:
      read_accelsim(path, every_kernel, handler);
      return;
    case TraceFormat::Stream: {
      Input in(path);
      stream::Reader reader(in.stream(), in.name());
      read_stream(reader, every_kernel, handler);
      in.check_read_error();
      return;
    }
    case TraceFormat::Archive:
      fail_input(path, "is already a sasskit archive");
  }
}

}  // namespace

void run(const Options& options, const CommonOptions& common) {
  Output out(options.output, OutputKind::Binary, common.force);
  archive::ArchiveWriter writer(out.stream(), out.name(), options.writer);
  ArchiveHandler handler(writer);
  read_any(options.input, handler);
  writer.finish();
  out.commit();
}

}  // namespace sasskit::compress
