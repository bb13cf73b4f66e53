#include "formats/stream.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "formats/records.hpp"

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/msgpack_raw.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "libcommon/version_string.hpp"

namespace sasskit::stream {
namespace {

// Walks one msgpack object without building it, to learn whether the buffer
// holds all of it. Nothing is allocated from declared lengths here, so the
// real unpack that follows only ever sees bytes that exist: a forged length
// cannot make the reader allocate more than the input's size. Nesting
// deeper than kMaxDepth is refused here, before anything walks a record
// recursively (--to jsonl, MapView).
constexpr size_t kMaxDepth = 32;

struct CompletenessVisitor : msgpack::null_visitor {
  bool insufficient = false;
  bool malformed = false;
  bool too_deep = false;
  size_t depth = 0;
  bool enter() {
    too_deep = too_deep || ++depth > kMaxDepth;
    return !too_deep;
  }
  bool start_array(uint32_t) { return enter(); }
  bool end_array() { return --depth, true; }
  bool start_map(uint32_t) { return enter(); }
  bool end_map() { return --depth, true; }
  void parse_error(size_t, size_t) { malformed = true; }
  void insufficient_bytes(size_t, size_t) { insufficient = true; }
};

constexpr size_t kReadChunk = 1 << 16;

const msgpack::unpack_limit kLimits(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                                    kMaxDepth);

template <class T>
T raw_as(std::string_view raw, std::string_view key, const std::string& where) {
  try {
    return msgpack::unpack(raw.data(), raw.size()).get().as<T>();
  } catch (const std::exception&) {
    fail_input(where, "field '" + std::string(key) + "' has the wrong type");
  }
}

// "file: record N", or "file: member M, record N" past the first member,
// into `out` (whose buffer is reused: the reader fills one per record).
void append_decimal(std::string& out, uint64_t n) {
  char digits[20];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// What every record's name in a member starts with: "file: record " or
// "file: member M, record ".
std::string record_where_prefix(const std::string& name, size_t member) {
  std::string out = name + ": ";
  if (member > 0) {
    out += "member ";
    append_decimal(out, member + 1);
    out += ", ";
  }
  return out + "record ";
}

void record_where(std::string& out, const std::string& prefix, uint64_t index) {
  out.assign(prefix);
  append_decimal(out, index);
}

std::string record_where(const std::string& prefix, uint64_t index) {
  std::string where;
  record_where(where, prefix, index);
  return where;
}

}  // namespace

Record::Record(std::string bytes, std::string where)
    : bytes_(std::move(bytes)), where_(std::move(where)) {
  read_type();
}

void Record::refill(std::string_view bytes, std::string_view where, RecordType type, std::string_view type_name) {
  bytes_.assign(bytes);
  where_.assign(where);
  // Refilled records come in runs of one type (a kernel's cta records);
  // a type tools know has one name.
  if (type != type_ || type == RecordType::Other) type_name_.assign(type_name);
  type_ = type;
  handle_.reset();
  fields_known_ = false;
}

void Record::refill(const Record& other) {
  refill(other.bytes_, other.where_, other.type_, other.type_name_);
  fields_ = other.fields_;
  fields_known_ = other.fields_known_;
}

void Record::raw(std::span<const std::string_view> keys, std::span<std::optional<std::string_view>> values) const {
  if (!fields_known_) {
    plain_map_size(bytes_, kMaxDepth, fields_);
    fields_known_ = true;
  }
  if (fields_.complete())
    fields_.find(bytes_, keys, values);
  else
    raw_fields(bytes_, keys, values, where_);  // which words what is wrong with the record
}

void Record::read_type() {
  handle_.reset();
  const auto t = raw("t");
  if (!t) fail_input(where_, "field 't' is missing");
  const auto name = raw_str(*t);
  if (name && *name == type_name_) return;  // the type of the record before (the reader reuses one Record)
  type_name_ = name ? std::string(*name) : raw_as<std::string>(*t, "t", where_);
  type_ = record_type(type_name_);
}

const msgpack::object& Record::object() const {
  if (!handle_) {
    auto h = std::make_shared<msgpack::object_handle>();
    try {
      msgpack::unpack(*h, bytes_.data(), bytes_.size(), nullptr, nullptr, kLimits);
    } catch (const msgpack::depth_size_overflow&) {
      fail_input(where_, "cannot decode: nested deeper than " + std::to_string(kMaxDepth) + " levels");
    } catch (const msgpack::unpack_error& e) {
      fail_input(where_, std::string("cannot decode: ") + e.what());
    }
    handle_ = std::move(h);
  }
  return handle_->get();
}

std::optional<std::string_view> Record::raw(std::string_view key) const {
  std::optional<std::string_view> value;
  raw({&key, 1}, {&value, 1});
  return value;
}

std::optional<uint32_t> Record::kernel_id() const {
  std::optional<std::string_view> kernel, cta;
  return kernel_and_place(kernel, cta);
}

std::optional<uint32_t> Record::kernel_and_place(std::optional<std::string_view>& kernel,
                                                 std::optional<std::string_view>& cta) const {
  const std::string_view key = type_ == RecordType::Kernel ? "id" : "kernel";
  const std::array<std::string_view, 2> keys = {key, "cta"};
  std::array<std::optional<std::string_view>, 2> values;
  raw(std::span(keys).first(type_ == RecordType::Cta ? 2 : 1), values);
  kernel = values[0];
  cta = values[1];
  if (!kernel) return std::nullopt;
  if (const auto u = raw_uint(*kernel); u && *u <= UINT32_MAX) return static_cast<uint32_t>(*u);
  return raw_as<uint32_t>(*kernel, key, where_);
}

Reader::Reader(std::istream& in, std::string name, std::string prefix)
    : in_(in), name_(std::move(name)), where_prefix_(record_where_prefix(name_, 0)), buf_(std::move(prefix)),
      end_(buf_.size()) {
  std::string bytes;
  if (!read_object(bytes)) fail_input(name_, "empty input: not a sasskit stream");
  read_header(bytes);
}

namespace {
// What model_fingerprint writes: 16 lower-case hex digits (STREAM.md, provenance).
bool is_fingerprint(std::string_view text) {
  return text.size() == 16 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
}  // namespace

void Reader::read_header(const std::string& bytes) {
  msgpack::object_handle h;
  try {
    h = msgpack::unpack(bytes.data(), bytes.size(), nullptr, nullptr, kLimits);
  } catch (const std::exception&) {
    fail_input(name_, "not a sasskit stream (bad header)");
  }
  const msgpack::object& o = h.get();
  const std::string where = name_ + ": header";
  if (o.type != msgpack::type::MAP) fail_input(name_, "not a sasskit stream (no header)");
  MapView m(o, where);
  if (!m.has("magic") || m.get<std::string>("magic") != kMagic)
    fail_input(name_, "not a sasskit stream (wrong magic)");
  header_ = Header{};
  header_.major = m.get<uint32_t>("major");
  header_.minor = m.get<uint32_t>("minor");
  if (header_.major < kOldestMajor || header_.major > kMajor)
    fail_input(name_, "stream format version " + std::to_string(header_.major) + "." +
                          std::to_string(header_.minor) + " is not supported (this is " +
                          std::to_string(kMajor) + "." + std::to_string(kMinor) +
                          "): upgrade sasskit");
  for (const auto& s : m.array("provenance")) {
    MapView sm(s, where);
    Stage st{sm.get<std::string>("tool"), sm.get<std::string>("version"),
             sm.get<std::vector<std::string>>("argv"), sm.get_or<std::string>("gpu", ""),
             sm.get_or<std::string>("gpu_fingerprint", ""), std::nullopt};
    if (sm.has("options")) st.options = sm.get<StageOptions>("options");
    if (!st.gpu_fingerprint.empty() && !is_fingerprint(st.gpu_fingerprint))
      fail_input(where, "the " + bounded_input(st.tool) + " stage's gpu_fingerprint " + quoted_input(st.gpu_fingerprint) +
                            " is not 16 hex digits");
    header_.provenance.push_back(std::move(st));
  }
}

void Reader::fill(size_t at_least) {
  while (end_ - pos_ < at_least && !eof_) {
    if (pos_ > 0 && pos_ * 2 >= end_) {
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
    }
    const size_t want = std::max(kReadChunk, end_);
    if (buf_.size() < end_ + want) buf_.resize(end_ + want);
    in_.read(buf_.data() + end_, static_cast<std::streamsize>(want));
    end_ += static_cast<size_t>(in_.gcount());
    if (in_.bad()) fail_io(name_, "read error");
    if (!in_) eof_ = true;
  }
}

bool Reader::read_object(std::string& bytes, TopFields* fields) {
  size_t need = 1;
  for (;;) {
    fill(need);
    size_t available = end_ - pos_;
    if (available == 0) return false;  // clean end between objects
    // Most records are walked here; msgpack's parser takes the others and
    // tells a record cut short from a malformed or too deep one.
    const std::string_view buffered = std::string_view(buf_).substr(pos_, available);
    const auto plain = fields ? plain_map_size(buffered, kMaxDepth, *fields) : plain_object_size(buffered, kMaxDepth);
    CompletenessVisitor v;
    size_t off = plain.value_or(0);
    if (plain || msgpack::parse(buf_.data() + pos_, available, off, v)) {
      bytes.assign(buf_, pos_, off);
      pos_ += off;
      consumed_ += off;
      ++index_;
      return true;
    }
    if (v.too_deep)
      fail_input(record_where(where_prefix_, index_),
                 "cannot decode: nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (v.malformed) fail_input(name_, "record " + std::to_string(index_) + " is not valid msgpack");
    if (eof_)
      fail_input(name_, "truncated stream: record " + std::to_string(index_) +
                            " is incomplete (no end record)");
    need = available * 2;  // insufficient: read more, doubling
  }
}

bool Reader::next(Record& out) {
  if (pending_ || !read_object(out.bytes_, &out.fields_))
    fail_input(name_, "truncated stream: no end record after " + std::to_string(index_ - 1) +
                          " records");
  out.fields_known_ = true;  // read_object found them, or that the record is no small map
  record_where(out.where_, where_prefix_, index_ - 1);
  out.read_type();
  if (out.type() == RecordType::End) {
    check_end(out);
    look_past_end();
    return false;
  }
  counts_.add(out.type_name());
  return true;
}

void Reader::look_past_end() {
  std::string bytes;
  if (!read_object(bytes)) return;
  const std::string where = name_ + ": after the end record";
  bool header = false;
  try {
    const auto magic = raw_field(bytes, "magic", where);
    header = magic && msgpack::unpack(magic->data(), magic->size()).get().as<std::string>() == kMagic;
  } catch (const std::exception&) {  // not a map, no magic: not a header
  }
  if (!header) fail_input(where, "data that is not a new stream (trailing garbage)");
  if (!members_)
    fail_input(where, "a second stream follows (concatenated input), and this tool reads only one");
  pending_ = std::move(bytes);
}

bool Reader::next_member() {
  if (!pending_) return false;
  read_header(*pending_);
  pending_.reset();
  counts_.clear();
  index_ = 1;
  ++member_;
  where_prefix_ = record_where_prefix(name_, member_);
  return true;
}

void Reader::check_end(const Record& end) {
  MapView m(end.object(), end.where());
  auto declared = m.get<std::map<std::string, uint64_t>>("counts");
  if (declared != counts_.by_type()) {
    std::string detail;
    for (const auto& [type, n] : declared)
      if (counts_.of(type) != n)
        detail += " " + type + ": " + std::to_string(counts_.of(type)) + " of " + std::to_string(n);
    fail_input(end.where(), "record counts do not match the end record (stream damaged):" +
                                (detail.empty() ? std::string(" extra records") : detail));
  }
}

Writer::Writer(std::ostream& out, std::string name, const Header& upstream, Stage self)
    : out_(out), self_(std::move(self)), name_(std::move(name)) {
  write_header(upstream);
}

void Writer::write_header(const Header& upstream) {
  Packer pk(buf_);
  auto pack_stage = [&](const Stage& s) {
    pack_map_of(pk, [&](auto& map) {
      map("tool", s.tool);
      map("version", s.version);
      map("argv", s.argv);
      if (!s.gpu.empty()) map("gpu", s.gpu);
      if (!s.gpu_fingerprint.empty()) map("gpu_fingerprint", s.gpu_fingerprint);
      if (s.options) map("options", *s.options);
    });
  };
  pack_map_of(pk, [&](auto& map) {
    map("magic", std::string(kMagic));
    map("major", kMajor);
    map("minor", kMinor);
    map.with("provenance", [&](Packer& out) {
      out.pack_array(static_cast<uint32_t>(upstream.provenance.size() + 1));
      for (const auto& s : upstream.provenance) pack_stage(s);
      pack_stage(self_);
    });
  });
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void Writer::next_member(const Header& upstream) {
  finish();
  counts_.clear();
  finished_ = false;
  write_header(upstream);
}

void Writer::emit(RecordType type) {
  counts_.add(record_type_name(type));
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void Writer::write(const Record& record) {
  if (record.type() == RecordType::Insts) note_table(decode<InstTable>(record));
  counts_.add(record.type_name());
  out_.write(record.bytes().data(), static_cast<std::streamsize>(record.bytes().size()));
}

void Writer::finish() {
  if (finished_) return;
  Packer pk(buf_);
  pack_map_of(pk, [&](auto& map) {
    map.type(RecordType::End);
    map("counts", counts_.by_type());
  });
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
  finished_ = true;
  check_written(out_, name_);
}

Stage this_stage(const std::string& tool, const std::vector<std::string>& argv, bool no_provenance,
                 StageOptions options, const ModelInUse* model) {
  Stage self{tool, version_string(), no_provenance ? std::vector<std::string>{} : argv, model ? model->name : "",
             model ? model->fingerprint : "", std::move(options)};
  if (model) self.options->insert(model->keys_given.begin(), model->keys_given.end());
  return self;
}

void check_gpu_model(const Header& upstream, const GpuExpectation& expected, const std::string& where) {
  if (expected.accept_other) return;
  for (const Stage& s : upstream.provenance) {
    if (s.gpu.empty()) continue;
    const std::string tool = bounded_input(s.tool), gpu = bounded_input(s.gpu);
    if (s.gpu != expected.gpu && !upstream.records_name_gpu())
      fail_input(where, "its " + tool + " records were computed for GPU model " + gpu + ", not " + expected.gpu +
                            " (--accept-other-gpu uses them anyway)");
    const bool both_known = !s.gpu_fingerprint.empty() && !expected.fingerprint.empty();
    // A what-if run changes a key or two of the model the stream was made
    // with: said, not refused.
    if (s.gpu == expected.gpu && both_known && s.gpu_fingerprint != expected.fingerprint)
      warn(where, "its " + tool + " records were computed for a GPU model " + gpu + " with other values (" +
                      gpu + " fingerprint " + s.gpu_fingerprint + ", not this " + expected.gpu + " fingerprint " +
                      expected.fingerprint + "); results mix the two models (compare their --dump-config; "
                      "--accept-other-gpu says nothing)");
  }
}

void check_record_gpu(const Record& r, const GpuExpectation& expected) {
  if (expected.accept_other || !r.raw("gpu")) return;
  const std::string made_for = MapView(r.object(), r.where()).get<std::string>("gpu");
  const auto control = [](unsigned char c) { return c < 0x20 || c == 0x7f; };
  if (std::any_of(made_for.begin(), made_for.end(), control))
    fail_input(r.where(), "field 'gpu' holds a control character");  // never echoed into a message
  if (made_for != expected.gpu)
    fail_input(r.where(), "this " + r.type_name() + " record was computed for GPU model " + bounded_input(made_for) + ", not " +
                              expected.gpu + " (--accept-other-gpu uses it anyway)");
}

}  // namespace sasskit::stream
