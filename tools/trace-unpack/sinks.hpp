// The three outputs of trace-unpack, each a TraceHandler.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/accelsim.hpp"
#include "formats/trace_source.hpp"
#include "libcommon/io.hpp"
#include "libcommon/json.hpp"

namespace sasskit::unpack {

// Writes every event as a stream record; other records pass through. With
// more than one thread, CTAs are held in batches whose records are packed on
// the threads, each batch's in CTA order, then written in that order: the
// bytes are those of one thread. Any other event writes the batch held
// first, so a batch is packed against one state of the kernel's table.
class StreamSink : public TraceHandler {
 public:
  StreamSink(stream::Writer& writer, unsigned threads);
  ~StreamSink() override;
  void memcpy(const Memcpy& m) override;
  void kernel(const KernelInfo& k) override;
  void insts(const InstTable& t) override;
  void cta(const CtaTrace& c) override;
  // With more than one thread, takes the CTA's columns into the batch.
  void take_cta(CtaTrace& c) override;
  // A stream's cta records are copied undecoded.
  void cta_record(const stream::CtaRecord& c) override;
  void other(const stream::Record& r) override;
  void next_member(const stream::Header& upstream, const std::string&) override;
  // Writes the batch held; before the writer finishes.
  void flush();

 private:
  struct Batch;
  stream::Writer& w_;
  unsigned threads_;
  std::unique_ptr<Batch> batch_;  // with more than one thread
};

// One JSON object per line: the header, each record, the end record; a
// header and an end line per member of a concatenated stream.
class JsonlSink : public TraceHandler {
 public:
  JsonlSink(std::ostream& out, const stream::Header& upstream, stream::Stage self);
  void memcpy(const Memcpy& m) override { typed(m); }
  void kernel(const KernelInfo& k) override { typed(k); }
  void insts(const InstTable& t) override { typed(t); }
  void cta(const CtaTrace& c) override { typed(c); }
  void other(const stream::Record& r) override;
  void next_member(const stream::Header& upstream, const std::string&) override;
  void finish();
  // Any record with a RecordCodec, as one line.
  template <class T>
  void typed(const T& value);

 private:
  void line(const char* data, size_t size, const std::string& type, const std::string& where);
  void header(const stream::Header& upstream);

  std::ostream& out_;
  stream::Stage self_;
  JsonWriter json_;
  std::map<std::string, uint64_t> counts_;
};

template <class T>
void JsonlSink::typed(const T& value) {
  msgpack::sbuffer buf;
  stream::Packer pk(buf);
  stream::RecordCodec<T>::pack(pk, value);
  const std::string type(stream::record_type_name(stream::RecordCodec<T>::type));
  line(buf.data(), buf.size(), type, type + " record");
}

// Accel-Sim text into a directory (kernelslist.g + one file per kernel), or
// one kernel's trace to stdout.
class AccelsimSink : public TraceHandler {
 public:
  AccelsimSink(const std::string& output, bool to_stdout);
  ~AccelsimSink() override;
  void memcpy(const Memcpy& m) override { entries_.emplace_back(m); }
  void kernel(const KernelInfo& k) override;
  void insts(const InstTable& t) override { writer("insts").insts(t); }
  void cta(const CtaTrace& c) override { writer("cta").cta(c); }
  // A compact record is written from its payload; one the writer leaves
  // (KernelTraceWriter::cta) is decoded, checked and written as a CtaTrace.
  void cta_record(const stream::CtaRecord& c) override;
  // A directory holds one trace: a concatenated stream is refused.
  void next_member(const stream::Header&, const std::string& where) override;
  // Commits the last kernel file and kernelslist.g, then moves the files
  // into place: nothing is written to the output until every file is whole.
  void finish();

 private:
  // The current kernel's writer; a `record` before any kernel is bad input.
  accelsim::KernelTraceWriter& writer(const std::string& record);
  void close_kernel();
  void move_into_existing();

  std::string final_dir_, dir_;
  bool to_stdout_;
  bool merge_into_existing_ = false;
  bool finished_ = false;
  unsigned kernels_ = 0;
  std::vector<accelsim::ListEntry> entries_;
  std::map<std::string, size_t> launch_of_file_;  // trace file name -> the launch (1, 2, ...) written to it
  std::unique_ptr<Output> file_;
  std::unique_ptr<accelsim::KernelTraceWriter> writer_;
  std::unique_ptr<RemoveOnSignal> on_signal_;  // the staging directory
};

}  // namespace sasskit::unpack
