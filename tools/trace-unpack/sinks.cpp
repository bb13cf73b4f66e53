#include "sinks.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <iostream>

#include "formats/cta_payload.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/json.hpp"
#include "libcommon/parallel.hpp"

namespace sasskit::unpack {
namespace fs = std::filesystem;

// The CTAs held, and per part of them (a task of the parallel section) its
// encoder and its records packed one after another. Several parts per thread
// even out CTAs of unequal sizes; 256 CTAs a batch (as rd-cache reads them)
// are enough to share among threads and few enough to hold.
// CTAs held to be packed on the threads: up to kCtas, and while they hold
// less than kBytesPerThread per thread of columns (a batch of 256 CTAs of a
// large gemm held 400 MB).
struct StreamSink::Batch {
  static constexpr size_t kCtas = 256;
  static constexpr size_t kPartsPerThread = 4;
  static constexpr size_t kBytesPerThread = size_t(1) << 20;
  struct Part {
    stream::PayloadEncoder encoder;
    msgpack::sbuffer packed;
  };
  explicit Batch(unsigned threads)
      : ctas(kCtas), parts(size_t(threads) * kPartsPerThread), most_bytes(threads * kBytesPerThread) {}
  // Whether `c`, copied or taken (swapped with a slot), fills the batch.
  bool add(const CtaTrace& c) {
    ctas[held] = c;
    return added();
  }
  bool take(CtaTrace& c) {
    std::swap(ctas[held], c);
    return added();
  }
  bool added() {
    bytes += (bytes_of[held] = column_bytes(ctas[held]));
    return ++held == kCtas || bytes >= most_bytes;
  }
  // Called once packed: a slot that held a CTA of more than a sixteenth of
  // a batch gives its memory back (what the slots keep stays within 16
  // batches; a slot given back at every batch costs its CTA's allocations).
  void clear() {
    for (size_t i = 0; i < held; ++i)
      if (bytes_of[i] > most_bytes / 16) ctas[i] = CtaTrace();
    held = 0;
    bytes = 0;
  }
  static size_t column_bytes(const CtaTrace& c) {
    size_t b = 0;
    for (const WarpTrace& w : c.warps)
      b += (w.inst.size() + w.mask.size()) * 4 + w.addr_mode.size() + (w.addrs.size() + w.addr_extra.size()) * 8;
    return b;
  }

  std::vector<CtaTrace> ctas;  // the first `held`; the others keep their capacity
  std::array<size_t, kCtas> bytes_of{};
  size_t held = 0, bytes = 0;
  std::vector<Part> parts;
  size_t most_bytes;
};

StreamSink::StreamSink(stream::Writer& writer, unsigned threads)
    : w_(writer), threads_(threads), batch_(threads > 1 ? std::make_unique<Batch>(threads) : nullptr) {}

StreamSink::~StreamSink() = default;

void StreamSink::memcpy(const Memcpy& m) {
  flush();
  w_.write(m);
}

void StreamSink::kernel(const KernelInfo& k) {
  flush();
  w_.write(k);
}

void StreamSink::insts(const InstTable& t) {
  flush();
  w_.write(t);
}

void StreamSink::cta(const CtaTrace& c) {
  if (!batch_) {
    w_.write(c);
    return;
  }
  if (batch_->add(c)) flush();
}

void StreamSink::take_cta(CtaTrace& c) {
  if (!batch_) {
    w_.write(c);
    return;
  }
  if (batch_->take(c)) flush();
}

void StreamSink::cta_record(const stream::CtaRecord& c) {
  flush();
  w_.write(c.record());
}

void StreamSink::other(const stream::Record& r) {
  flush();
  w_.write(r);
}

void StreamSink::next_member(const stream::Header& upstream, const std::string&) {
  flush();
  w_.next_member(upstream);
}

void StreamSink::flush() {
  if (!batch_ || batch_->held == 0) return;
  Batch& b = *batch_;
  const size_t parts = std::min(b.parts.size(), b.held);
  parallel_for(parts, threads_, [&](size_t p) {
    Batch::Part& part = b.parts[p];
    part.packed.clear();
    for (size_t i = b.held * p / parts; i < b.held * (p + 1) / parts; ++i)
      w_.pack_cta(b.ctas[i], part.packed, part.encoder);
  });
  for (size_t p = 0; p < parts; ++p)
    w_.write_packed_ctas(b.parts[p].packed, b.held * (p + 1) / parts - b.held * p / parts);
  b.clear();
}

JsonlSink::JsonlSink(std::ostream& out, const stream::Header& upstream, stream::Stage self)
    : out_(out), self_(std::move(self)), json_(out) {
  header(upstream);
}

void JsonlSink::next_member(const stream::Header& upstream, const std::string&) {
  finish();
  counts_.clear();
  header(upstream);
}

void JsonlSink::header(const stream::Header& upstream) {
  stream::Header header;  // the version of what this run writes
  header.provenance = report_provenance(upstream.provenance, self_);
  json_.begin_object().field("t", "header").field("magic", stream::kMagic);
  json_.field("major", header.major).field("minor", header.minor).key("provenance");
  write_provenance(json_, header.provenance);
  json_.end_object();
  out_ << '\n';
}

void JsonlSink::other(const stream::Record& r) {
  line(r.bytes().data(), r.bytes().size(), r.type_name(), r.where());
}

void JsonlSink::line(const char* data, size_t size, const std::string& type, const std::string& where) {
  msgpack::object_handle h = msgpack::unpack(data, size);
  write_json(json_, h.get(), where);
  out_ << '\n';
  ++counts_[type];
}

void JsonlSink::finish() {
  json_.begin_object().field("t", "end").key("counts").begin_object();
  for (const auto& [type, n] : counts_) json_.field(type, n);
  json_.end_object().end_object();
  out_ << '\n';
}

namespace {
// The file name to write a kernel's text under: as listed, less a
// compression suffix (the text written is plain). A name from the input is
// never a path: one that is refuses the kernel.
std::string plain_trace_name(const KernelInfo& k) {
  if (k.trace_file.empty()) return "kernel-" + std::to_string(k.id) + ".traceg";
  if (!accelsim::is_plain_file_name(k.trace_file))
    fail_input("kernel " + std::to_string(k.id),
               "trace file name " + json_escape(k.trace_file) + " is not a plain file name");
  for (std::string_view suffix : {".xz", ".gz"})
    if (k.trace_file.ends_with(suffix))
      return k.trace_file.substr(0, k.trace_file.size() - suffix.size());
  return k.trace_file;
}

// Where the files are built: a new directory beside the output, renamed into
// place at the end, or, when the output exists, a hidden directory inside it
// whose files move into place only once every one is complete.
std::string staging_directory(const std::string& output, bool output_exists) {
  const std::string tag = ".tmp" + std::to_string(::getpid());
  return output_exists ? (fs::path(output) / tag).string() : output + tag;
}
}  // namespace

namespace {
// "out/" and "out" name the same directory to create.
std::string without_trailing_slashes(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}
}  // namespace

AccelsimSink::AccelsimSink(const std::string& requested, bool to_stdout)
    : final_dir_(without_trailing_slashes(requested)), dir_(final_dir_), to_stdout_(to_stdout) {
  if (to_stdout_) return;
  const std::string& output = final_dir_;
  if (fs::exists(output) && !fs::is_directory(output))
    fail_io(output, "exists and is not a directory");
  merge_into_existing_ = fs::exists(output);
  auto parent = fs::path(output).parent_path();
  if (!merge_into_existing_ && !parent.empty() && !fs::is_directory(parent))
    fail_io(output, "cannot write: directory " + parent.string() + " does not exist");
  dir_ = staging_directory(output, merge_into_existing_);
  std::error_code ec;
  {
    const CleanupSignalsHeld held;
    fs::create_directory(dir_, ec);
    if (!ec) on_signal_ = std::make_unique<RemoveOnSignal>(dir_, true);
  }
  if (ec) fail_io(output, "cannot create directory: " + ec.message());
}

AccelsimSink::~AccelsimSink() {
  writer_.reset();
  file_.reset();
  if (!to_stdout_ && !finished_) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

void AccelsimSink::next_member(const stream::Header&, const std::string& where) {
  fail_input(where, "a concatenated stream (a second member follows): Accel-Sim text holds one trace; "
                      "unpack each member on its own");
}

accelsim::KernelTraceWriter& AccelsimSink::writer(const std::string& record) {
  if (!writer_) fail_input(record + " record", "comes before any kernel record");
  return *writer_;
}

void AccelsimSink::cta_record(const stream::CtaRecord& c) {
  const std::optional<std::string_view> payload = stream::cta_payload(c.record());
  if (!writer_ || !payload || !writer_->cta(c.cta(), *payload)) TraceHandler::cta_record(c);
}

void AccelsimSink::close_kernel() {
  writer_.reset();
  if (file_) file_->commit();
  file_.reset();
}

void AccelsimSink::kernel(const KernelInfo& k) {
  close_kernel();
  if (to_stdout_ && ++kernels_ > 1)
    fail_usage("Accel-Sim text on stdout holds one kernel: choose it with --kernels, or use -o DIR");
  std::string name = plain_trace_name(k);
  // A second launch written to the same file would replace the first.
  const size_t launch = launch_of_file_.size() + 1;
  const auto [owner, fresh] = launch_of_file_.emplace(name, launch);
  if (!fresh)
    fail_input("kernel " + std::to_string(k.id),
               "launch " + std::to_string(launch) + " names trace file " + json_escape(name) + ", which launch " +
                   std::to_string(owner->second) + " is written to: Accel-Sim text needs a file per launch");
  entries_.emplace_back(name);
  file_ = std::make_unique<Output>(to_stdout_ ? "-" : (fs::path(dir_) / name).string(),
                                   OutputKind::Text);
  writer_ = std::make_unique<accelsim::KernelTraceWriter>(file_->stream(), k);
}

// Moves the finished files of the staging directory into the existing
// output, kernelslist.g last, so readers never see a list naming files
// that are not there yet.
void AccelsimSink::move_into_existing() {
  std::vector<std::string> names;
  for (const auto& e : entries_)
    if (const auto* name = std::get_if<std::string>(&e)) names.push_back(*name);
  names.push_back("kernelslist.g");
  for (const auto& name : names) {
    std::error_code ec;
    fs::rename(fs::path(dir_) / name, fs::path(final_dir_) / name, ec);
    if (ec) fail_io((fs::path(final_dir_) / name).string(), "cannot move into place: " + ec.message());
  }
  std::error_code ec;
  fs::remove(dir_, ec);
}

void AccelsimSink::finish() {
  close_kernel();
  if (to_stdout_) {
    finished_ = true;
    return;
  }
  Output list((fs::path(dir_) / "kernelslist.g").string(), OutputKind::Text);
  accelsim::write_kernel_list(list.stream(), entries_);
  list.commit();
  if (merge_into_existing_) {
    move_into_existing();
  } else {
    std::error_code ec;
    fs::rename(dir_, final_dir_, ec);
    if (ec) fail_io(final_dir_, "cannot move the finished directory into place: " + ec.message());
  }
  on_signal_.reset();
  finished_ = true;
}

}  // namespace sasskit::unpack
