// The sasskit stream (formats/STREAM.md): msgpack objects in sequence, a
// header first, an end record last. Reader and Writer handle framing,
// versions, provenance, bounds and record counts; records.hpp holds the
// typed records.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <msgpack.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sasskit::stream {

inline constexpr uint32_t kMajor = 1;
inline constexpr uint32_t kMinor = 3;
inline constexpr std::string_view kMagic = "sasskit-stream";

using Packer = msgpack::packer<msgpack::sbuffer>;

// One stage of the provenance chain, like samtools' @PG lines.
struct Stage {
  std::string tool;
  std::string version;
  std::vector<std::string> argv;  // empty with --no-provenance
  std::string gpu;                // the GPU model its records were computed for; empty if none
  bool operator==(const Stage&) const = default;
};

struct Header {
  uint32_t major = kMajor;
  uint32_t minor = kMinor;
  std::vector<Stage> provenance;
};

// A record as read: its type, its parsed object and its exact bytes, so a
// tool can pass a record it does not own through unchanged.
class Record {
 public:
  Record() = default;
  Record(std::string bytes, std::string where);
  const std::string& type() const { return type_; }
  const msgpack::object& object() const { return handle_.get(); }
  const std::string& bytes() const { return bytes_; }
  // "file: record N" for messages about this record.
  const std::string& where() const { return where_; }

 private:
  std::string bytes_;
  std::string type_;
  std::string where_;
  msgpack::object_handle handle_;
};

class Reader {
 public:
  // Reads and checks the header: magic, major version (refused if unknown),
  // minor version (accepted if higher). `prefix` holds bytes already taken
  // from `in` (e.g. to recognise the input), read before the rest.
  Reader(std::istream& in, std::string name, std::string prefix = {});
  const Header& header() const { return header_; }
  // Reads the next record into `out`. Returns false after the end record,
  // whose counts it checks. A stream that stops before its end record is a
  // BadInput error ("truncated").
  bool next(Record& out);
  const std::string& name() const { return name_; }

 private:
  bool read_object(std::string& bytes);
  // Reads until `at_least` bytes are buffered past pos_, or the input ends.
  void fill(size_t at_least);
  void check_end(const Record& end);

  std::istream& in_;
  std::string name_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
  uint64_t index_ = 0;
  Header header_;
  std::map<std::string, uint64_t> counts_;
};

// Writes a header (the upstream provenance plus this stage), records, and an
// end record with the count of every record type.
class Writer {
 public:
  Writer(std::ostream& out, std::string name, const Header& upstream, Stage self);
  // Pass a record through byte for byte.
  void write(const Record& record);
  // Write a typed record (any T with a RecordCodec<T>).
  template <class T>
  void write(const T& value);
  // Writes the end record and flushes; a failed write is an Io error.
  void finish();

 private:
  void emit(std::string_view type);

  std::ostream& out_;
  std::string name_;
  msgpack::sbuffer buf_;
  std::map<std::string, uint64_t> counts_;
  bool finished_ = false;
};

// Specialised per record type in records.hpp:
//   static constexpr std::string_view type;
//   static void pack(Packer&, const T&);            // the map, "t" included
//   static T unpack(const Record&);                 // BadInput on bad fields
template <class T>
struct RecordCodec;

template <class T>
void Writer::write(const T& value) {
  Packer pk(buf_);
  RecordCodec<T>::pack(pk, value);
  emit(RecordCodec<T>::type);
}

template <class T>
T decode(const Record& r) {
  return RecordCodec<T>::unpack(r);
}

// The provenance entry for the running tool; `gpu` names the GPU model its
// records are computed for (empty for tools without one).
Stage this_stage(const std::string& tool, const std::vector<std::string>& argv,
                 bool no_provenance, const std::string& gpu = "");

// Refuses (bad input, at `where`) a stream that a stage computed for
// another GPU model than `gpu`, unless `accept`: records made for one model
// do not describe another.
void check_gpu_model(const Header& upstream, const std::string& gpu, bool accept, const std::string& where);

}  // namespace sasskit::stream
