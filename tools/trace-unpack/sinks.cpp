#include "sinks.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "formats/stream_json.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::unpack {
namespace fs = std::filesystem;

JsonlSink::JsonlSink(std::ostream& out, const stream::Header& header) : out_(out), json_(out) {
  json_.begin_object().field("t", "header").field("magic", stream::kMagic);
  json_.field("major", header.major).field("minor", header.minor).key("provenance").begin_array();
  for (const auto& s : header.provenance) {
    json_.begin_object().field("tool", s.tool).field("version", s.version).key("argv");
    json_.array(s.argv);
    if (!s.gpu.empty()) json_.field("gpu", s.gpu);
    json_.end_object();
  }
  json_.end_array().end_object();
  out_ << '\n';
}

void JsonlSink::other(const stream::Record& r) {
  line(r.bytes().data(), r.bytes().size(), r.type());
}

void JsonlSink::line(const char* data, size_t size, const std::string& type) {
  msgpack::object_handle h = msgpack::unpack(data, size);
  write_json(json_, h.get());
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
// compression suffix (the text written is plain).
std::string plain_trace_name(const KernelInfo& k) {
  if (k.trace_file.empty()) return "kernel-" + std::to_string(k.id) + ".traceg";
  for (std::string_view suffix : {".xz", ".gz"})
    if (k.trace_file.ends_with(suffix))
      return k.trace_file.substr(0, k.trace_file.size() - suffix.size());
  return k.trace_file;
}
}  // namespace

AccelsimSink::AccelsimSink(const std::string& output, bool to_stdout)
    : final_dir_(output), dir_(output), to_stdout_(to_stdout) {
  if (to_stdout_) return;
  if (fs::exists(output) && !fs::is_directory(output))
    fail_io(output, "exists and is not a directory");
  if (!fs::exists(output)) {
    // Build a new directory under a temporary name; finish() renames it, so a
    // failed run leaves nothing behind.
    auto parent = fs::path(output).parent_path();
    if (!parent.empty() && !fs::is_directory(parent))
      fail_io(output, "cannot write: directory " + parent.string() + " does not exist");
    dir_ = output + ".tmp" + std::to_string(::getpid());
    std::error_code ec;
    fs::create_directory(dir_, ec);
    if (ec) fail_io(output, "cannot create directory: " + ec.message());
    made_dir_ = true;
  }
}

AccelsimSink::~AccelsimSink() {
  writer_.reset();
  file_.reset();
  if (made_dir_ && !finished_) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
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
  entries_.emplace_back(name);
  file_ = std::make_unique<Output>(to_stdout_ ? "-" : (fs::path(dir_) / name).string(),
                                   OutputKind::Text);
  writer_ = std::make_unique<accelsim::KernelTraceWriter>(file_->stream(), k);
}

void AccelsimSink::finish() {
  close_kernel();
  if (!to_stdout_) {
    Output list((fs::path(dir_) / "kernelslist.g").string(), OutputKind::Text);
    accelsim::write_kernel_list(list.stream(), entries_);
    list.commit();
  }
  if (made_dir_) {
    std::error_code ec;
    fs::rename(dir_, final_dir_, ec);
    if (ec) fail_io(final_dir_, "cannot move the finished directory into place: " + ec.message());
  }
  finished_ = true;
}

}  // namespace sasskit::unpack
