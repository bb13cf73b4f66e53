// The one output style of the filter tools (cta-sample, rd-cache,
// pipe-sim): the tool hands a Sink every record it passes on and each
// kernel's result R, member by member, then calls finish(). The stream sink
// writes the records and each result as records where the tool hands it;
// a summary sink (JSON, CSV) keeps only the results and writes nothing
// before finish(), so a failed run leaves no partial summary.
#pragma once

#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>

#include "formats/stream.hpp"

namespace sasskit::stream {

// The part of a sink that sees records (held_kernel.hpp passes them on).
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // A member of the input starts (0, 1, ...).
  virtual void member(const Header&, size_t /*member*/) {}
  // A record passed on, in input order.
  virtual void record(const Record&) {}
  virtual void finish() = 0;
  // Whether records reach the output (false: a summary of the results).
  virtual bool keeps_records() const { return false; }
};

template <class R>
class Sink : public RecordSink {
 public:
  // A kernel's result, at its place among the records.
  virtual void result(const R& result) = 0;
};

// The stream: records pass through byte for byte, one output member per
// input member; a subclass writes each result's records with writer().
template <class R>
class StreamSink : public Sink<R> {
 public:
  StreamSink(std::ostream& out, const std::string& name, const Header& upstream, Stage self)
      : writer_(out, name, upstream, std::move(self)) {}
  void member(const Header& header, size_t member) override {
    if (member > 0) writer_.next_member(header);
  }
  void record(const Record& r) override { writer_.write(r); }
  void finish() override { writer_.finish(); }
  bool keeps_records() const override { return true; }

 protected:
  Writer& writer() { return writer_; }

 private:
  Writer writer_;
};

// A text summary of the results, built in memory (it is small) and written
// at finish(), after end_summary() has closed it.
template <class R>
class SummarySink : public Sink<R> {
 public:
  explicit SummarySink(std::ostream& out) : out_(out) {}
  void finish() override {
    end_summary();
    out_ << buffer_.str();
  }

 protected:
  std::ostream& summary() { return buffer_; }
  virtual void end_summary() {}

 private:
  std::ostream& out_;
  std::ostringstream buffer_;
};

}  // namespace sasskit::stream
