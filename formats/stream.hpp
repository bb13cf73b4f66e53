// The sasskit stream (formats/STREAM.md): msgpack objects in sequence, a
// header first, an end record last. Reader and Writer handle framing,
// versions, provenance, bounds and record counts; records.hpp holds the
// typed records.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <msgpack.hpp>
#include <span>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "formats/msgpack_raw.hpp"
#include "formats/record_type.hpp"
#include "libcommon/model_in_use.hpp"

namespace sasskit {
struct CtaTrace;
struct InstTable;
}  // namespace sasskit

namespace sasskit::stream {

class PayloadEncoder;  // formats/cta_payload.hpp

inline constexpr uint32_t kMajor = 3;
inline constexpr uint32_t kMinor = 0;
// The oldest major version still read: 1.x differs only in how cta records
// are written, and its layout remains the expanded form of a cta record;
// 2.x only in the cache record's noc_queue and dram_queue, which readers ignore.
inline constexpr uint32_t kOldestMajor = 1;
inline constexpr std::string_view kMagic = "sasskit-stream";

using Packer = msgpack::packer<msgpack::sbuffer>;

// Option name (no dashes) -> value, as libcommon/cli.hpp's OptionValues.
using StageOptions = std::map<std::string, std::string>;

// One stage of the provenance chain, like samtools' @PG lines.
struct Stage {
  std::string tool;
  std::string version;
  std::vector<std::string> argv;  // empty with --no-provenance
  std::string gpu;                // the GPU model its records were computed for; empty if none
  // Format 2.3 on: the model's values as a fingerprint (model_fingerprint
  // in libcommon/gpu_options.hpp); empty without a model or before 2.3.
  std::string gpu_fingerprint;
  // Format 2.3 on: the options the stage ran with that may change its
  // records, as parsed (CommonOptions::effective_options plus the model keys given on
  // its command line); nullopt before 2.3, when they were not recorded.
  std::optional<StageOptions> options;
  bool operator==(const Stage&) const = default;
};

struct Header {
  uint32_t major = kMajor;
  uint32_t minor = kMinor;
  std::vector<Stage> provenance;
  // Format 2.1 on: every record computed for a GPU model names it (`gpu`).
  bool records_name_gpu() const { return major > 2 || (major == 2 && minor >= 1); }
};

// The GPU model a reading tool computes for (its --config): records made
// for another model are refused unless `accept_other` (--accept-other-gpu).
struct GpuExpectation {
  std::string gpu;
  bool accept_other = false;
  // The model's fingerprint (model_fingerprint in libcommon/gpu_options.hpp);
  // empty: no check of values.
  std::string fingerprint;
};

// A record as read: its exact bytes and its type. It is decoded only when
// asked (object(), decode<T>), so a tool passing a record through never
// builds a msgpack object for it.
class Record {
 public:
  Record() = default;
  // BadInput at `where` when `bytes` is not a map with a string "t".
  Record(std::string bytes, std::string where);
  // Becomes `bytes` read at `where`, whose "t" a read before found to be
  // `type` (`type_name` as written): not walked again. Its buffers are
  // reused, and no parsed object is kept.
  void refill(std::string_view bytes, std::string_view where, RecordType type, std::string_view type_name);
  // Becomes a copy of `other` (its buffers reused), but for its parsed object.
  void refill(const Record& other);
  // Its "t", decoded once when read: Other for a type no tool knows.
  RecordType type() const { return type_; }
  // Its "t" as written (an Other record's own name).
  const std::string& type_name() const { return type_name_; }
  // The parsed record, built on first use (BadInput if it cannot be).
  const msgpack::object& object() const;
  const std::string& bytes() const { return bytes_; }
  // "file: record N" for messages about this record.
  const std::string& where() const { return where_; }
  // The encoded value of a top-level field, or nullopt; nothing is built.
  std::optional<std::string_view> raw(std::string_view key) const;
  // raw() for several keys at once (raw_fields): values[i] is keys[i]'s.
  void raw(std::span<const std::string_view> keys, std::span<std::optional<std::string_view>> values) const;
  // The kernel this record is about: `id` of a kernel record, `kernel` of
  // any other; nullopt for records about no kernel (memcpy, plan, ...).
  std::optional<uint32_t> kernel_id() const;
  // kernel_id(), and for a cta record its encoded `cta` field too (else
  // nullopt), in one walk; `kernel` is the encoded field the id is read from.
  std::optional<uint32_t> kernel_and_place(std::optional<std::string_view>& kernel,
                                           std::optional<std::string_view>& cta) const;

 private:
  friend class Reader;  // refills a Record in place, reusing its buffers
  void read_type();

  std::string bytes_;
  RecordType type_ = RecordType::Other;
  std::string type_name_;
  std::string where_;
  mutable std::shared_ptr<const msgpack::object_handle> handle_;  // lazily decoded
  // Its top-level fields, found when the reader framed it or on first use:
  // each lookup is then no walk of the map.
  mutable TopFields fields_;
  mutable bool fields_known_ = false;
};

// Records counted by type name, as an end record lists them. Records come in
// runs of one type (a kernel's cta records), so the last type counted is
// kept at hand rather than looked up again.
class RecordCounts {
 public:
  RecordCounts() = default;
  // A copy looks its first type up afresh: last_ points into the original.
  RecordCounts(const RecordCounts& other) : counts_(other.counts_) {}
  RecordCounts& operator=(const RecordCounts& other) {
    counts_ = other.counts_;
    last_ = nullptr;
    return *this;
  }
  void add(std::string_view type, uint64_t n = 1) {
    if (!last_ || last_->first != type) last_ = &*counts_.try_emplace(std::string(type)).first;
    last_->second += n;
  }
  uint64_t of(const std::string& type) const {
    const auto it = counts_.find(type);
    return it == counts_.end() ? 0 : it->second;
  }
  const std::map<std::string, uint64_t>& by_type() const { return counts_; }
  void clear() {
    counts_.clear();
    last_ = nullptr;
  }

 private:
  std::map<std::string, uint64_t> counts_;
  std::pair<const std::string, uint64_t>* last_ = nullptr;  // in counts_, whose nodes stay put
};

// A stream may be a concatenation of members, each header ... end (like
// gzip members): `cat a b` is a stream of two members.
class Reader {
 public:
  // Reads and checks the header: magic, major version (refused if unknown),
  // minor version (accepted if higher). `prefix` holds bytes already taken
  // from `in` (e.g. to recognise the input), read before the rest.
  Reader(std::istream& in, std::string name, std::string prefix = {});
  // The current member's header.
  const Header& header() const { return header_; }
  // Reads the next record of the current member into `out`. Returns false
  // after the member's end record, whose counts it checks. A stream that
  // stops before its end record is a BadInput error ("truncated"); so are
  // bytes after an end record that are not a new member's header, and a new
  // member when accept_members() was not called (a reader that would
  // otherwise stop at the first member refuses rather than drops it).
  bool next(Record& out);
  // After next() returned false: reads the following member's header and
  // returns true, or returns false at the end of the input.
  bool next_member();
  // Lets next_member() be used; without it a second member is refused.
  void accept_members() { members_ = true; }
  // 0 for the first member.
  size_t member() const { return member_; }
  // Bytes consumed so far (for progress).
  uint64_t bytes_read() const { return consumed_; }
  const std::string& name() const { return name_; }
  // The model the kernel layer checks every member and record against
  // (kernel_stream.hpp, read_kernels); unset: no check.
  void expect_gpu(GpuExpectation expected) { expected_gpu_ = std::move(expected); }
  const std::optional<GpuExpectation>& expected_gpu() const { return expected_gpu_; }

 private:
  // The next object's bytes, and with `fields` its top-level fields where it is a small map.
  bool read_object(std::string& bytes, TopFields* fields = nullptr);
  // Reads until `at_least` bytes are buffered past pos_, or the input ends.
  void fill(size_t at_least);
  void read_header(const std::string& bytes);
  void check_end(const Record& end);
  // After an end record: whether a member follows (its header read into
  // pending_), refusing anything else.
  void look_past_end();

  std::istream& in_;
  std::string name_;
  std::string where_prefix_;  // of the current member's records' names (record_where_prefix)
  // Bytes read and not yet taken are buf_[pos_, end_); the storage beyond
  // end_ is kept for the next reads (growing it fills it with zeros).
  std::string buf_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  uint64_t index_ = 0;
  uint64_t consumed_ = 0;
  Header header_;
  RecordCounts counts_;
  bool members_ = false;
  size_t member_ = 0;
  std::optional<std::string> pending_;  // the next member's header bytes
  std::optional<GpuExpectation> expected_gpu_;
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
  // An insts slice; the writer keeps the open kernel's table to write cta
  // records compactly.
  void write(const InstTable& slice);
  // A cta record in the compact form when it agrees with the table written
  // before it (validate_cta), else in the expanded form (formats/STREAM.md).
  void write(const CtaTrace& cta);
  // write(const CtaTrace&) in two halves, for CTAs packed on threads and
  // written in their order (trace-unpack -j): pack_cta appends to `into` the
  // record write(cta) would write now, against the table written so far,
  // with `encoder`'s storage; safe from several threads at once, each with
  // its own `into` and `encoder`, while nothing is written. write_packed_ctas
  // writes `records` such records, packed one after another into `packed`.
  void pack_cta(const CtaTrace& cta, msgpack::sbuffer& into, PayloadEncoder& encoder) const;
  void write_packed_ctas(const msgpack::sbuffer& packed, uint64_t records);
  // Writes the end record and flushes; a failed write is an Io error.
  void finish();
  // Ends the current member (as finish()) and starts a new one: a header
  // with `upstream`'s provenance plus this stage.
  void next_member(const Header& upstream);

 private:
  void emit(RecordType type);
  void write_header(const Header& upstream);
  // Keeps the open kernel's instruction table from an insts slice.
  void note_table(const InstTable& slice);

  struct KernelTable;
  std::shared_ptr<KernelTable> table_;  // of the kernel whose insts were written last
  std::shared_ptr<PayloadEncoder> payload_;  // of the compact cta records, made with the first

  std::ostream& out_;
  Stage self_;
  std::string name_;
  msgpack::sbuffer buf_;
  RecordCounts counts_;
  bool finished_ = false;
};

// Specialised per record type in records.hpp:
//   static constexpr RecordType type;
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

// The provenance entry for the running tool, from what it parsed: `options`
// are the options that may change its records (CommonOptions'
// effective_options in libcommon/cli.hpp). `model`, for a tool that computes
// for a GPU model (GpuOptions::model_in_use()), names the model, gives its
// fingerprint and adds the model keys its command line gave to the options.
Stage this_stage(const std::string& tool, const std::vector<std::string>& argv, bool no_provenance,
                 StageOptions options, const ModelInUse* model = nullptr);

// Refuses (bad input, at `where`) a stream that a stage computed for
// another GPU model than `expected`'s, unless it accepts other models:
// records made for one model do not describe another. A stage names
// another model when its name differs or, both fingerprints known, its
// values do. Records name their model's name only (2.1 on: read_kernels
// checks them one by one); this check covers the values, and the name of
// streams before 2.1.
void check_gpu_model(const Header& upstream, const GpuExpectation& expected, const std::string& where);

// Refuses (bad input, at the record) a record whose `gpu` names another
// model than `expected`'s, unless it accepts other models. A record
// without `gpu` passes.
void check_record_gpu(const Record& r, const GpuExpectation& expected);

}  // namespace sasskit::stream
