#include "formats/trace_source.hpp"

#include <filesystem>
#include <fstream>
#include <optional>

#include "formats/accelsim.hpp"
#include "formats/archive.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "libcommon/progress.hpp"

namespace sasskit {
namespace fs = std::filesystem;

namespace {

// Thrown from a handler callback to skip the rest of an unselected kernel.
struct SkipKernel {};

// Passes on the selected kernels, named as kernelslist.g lists them (the
// file read may carry an extra .xz or .gz).
class SelectingSink {
 public:
  SelectingSink(KernelSelector& sel, TraceHandler& h) : sel_(sel), h_(h) {}
  void set_listed_name(std::string name) { listed_name_ = std::move(name); }
  accelsim::KernelSink sink() {
    return accelsim::KernelSink{
        [this](const KernelInfo& k) {
          if (!sel_.select(k)) throw SkipKernel{};
          KernelInfo named = k;
          named.trace_file = listed_name_;
          h_.kernel(named);
        },
        [this](const InstTable& t) { h_.insts(t); },
        [this](CtaTrace& c) { h_.take_cta(c); }};
  }

 private:
  KernelSelector& sel_;
  TraceHandler& h_;
  std::string listed_name_;
};

// kernelslist.g of a trace given as its directory or as the file itself.
std::string accelsim_list_path(const std::string& path) {
  return fs::is_directory(path) ? (fs::path(path) / "kernelslist.g").string() : path;
}

std::optional<std::string> existing_kernel_file(const fs::path& dir, const std::string& name) {
  for (const char* suffix : {"", ".xz", ".gz"}) {
    fs::path p = dir / (name + suffix);
    if (fs::exists(p)) return p.string();
  }
  return std::nullopt;
}

std::string find_kernel_file(const fs::path& dir, const std::string& name) {
  if (auto file = existing_kernel_file(dir, name)) return *file;
  fail_io((dir / name).string(), "kernel trace listed in kernelslist.g does not exist");
}

// Accel-Sim 2.0 (accel-sim-framework pull request 553, August 2026) records
// per-warp zstd-compressed .tracez traces and ships traceDsm, which decodes
// binary traces into the text format (pull request 471). The layout of a
// .tracez file is not published, so it is refused, naming the way forward.
[[noreturn]] void refuse_tracez(const std::string& where) {
  fail_input(where,
             "an Accel-Sim 2.0 .tracez trace (zstd-compressed; its layout is not published, so sasskit cannot read "
             "it): decode it to Accel-Sim text with Accel-Sim 2.0's traceDsm and give sasskit the text trace");
}

bool is_tracez_name(const std::string& path) { return fs::path(path).extension() == ".tracez"; }

bool starts_as_zstd(std::string_view head) { return head.starts_with("\x28\xB5\x2F\xFD"); }

// A directory without kernelslist.g that holds a .tracez file.
void refuse_tracez_directory(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_tracez_name(entry.path().string())) refuse_tracez(dir);
}

}  // namespace

TraceFormat detect_trace_format(Input& in, std::string& head) {
  head.resize(32);
  in.stream().read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.stream().gcount()));
  in.check_read_error();
  if (head.find(stream::kMagic) != std::string::npos) return TraceFormat::Stream;
  if (archive::has_archive_magic(head)) return TraceFormat::Archive;
  if (starts_as_zstd(head) || is_tracez_name(in.name())) refuse_tracez(in.name());
  fail_input(in.name(), "not a sasskit stream, archive or Accel-Sim trace directory");
}

bool is_accelsim_path(const std::string& path) {
  return path != "-" && (fs::is_directory(path) || fs::path(path).filename() == "kernelslist.g");
}

TraceFormat detect_trace_format(const std::string& path) {
  if (is_accelsim_path(path)) return TraceFormat::AccelsimDir;
  Input in(path);
  std::string head;
  return detect_trace_format(in, head);
}

void read_accelsim(const std::string& path, KernelSelector& selection, TraceHandler& handler, unsigned threads) {
  std::string list_path = accelsim_list_path(path);
  if (!fs::exists(list_path)) {
    if (fs::is_directory(path)) {
      refuse_tracez_directory(path);
      fail_io(path, "no kernelslist.g in this directory");
    }
    fail_io(list_path, "no such file");
  }
  fs::path dir = fs::path(list_path).parent_path();
  ReadingJob job(path, {list_path});  // one progress line for the whole directory
  std::vector<accelsim::ListEntry> entries;
  {
    Input list(list_path);
    entries = accelsim::read_kernel_list(list.stream(), list_path);
  }
  std::vector<std::string> files;  // the kernel traces there are (a missing one fails when its turn comes)
  for (const auto& entry : entries)
    if (const auto* listed = std::get_if<std::string>(&entry)) {
      if (is_tracez_name(*listed)) refuse_tracez((dir / *listed).string());
      if (auto file = existing_kernel_file(dir, *listed)) files.push_back(*file);
    }
  job.expect(files);
  SelectingSink selecting(selection, handler);
  accelsim::KernelSink sink = selecting.sink();
  for (const auto& entry : entries) {
    if (const auto* copy = std::get_if<Memcpy>(&entry)) {
      handler.memcpy(*copy);
      continue;
    }
    const std::string& listed = std::get<std::string>(entry);
    selecting.set_listed_name(listed);
    std::string file = find_kernel_file(dir, listed);
    Input in(file);
    try {
      accelsim::read_kernel_trace(in.stream(), file, sink, threads);
    } catch (const SkipKernel&) {
    }
    in.check_read_error();
  }
}

namespace {

// The kernel layer's events as a TraceHandler's, for the kept kernels: the
// selector decides once, at each kernel record.
class SelectedKernels : public stream::KernelHandler {
 public:
  SelectedKernels(KernelSelector& selection, TraceHandler& handler, const std::string& input)
      : sel_(selection), h_(handler), input_(input) {}
  void begin_member(const stream::Header& header, size_t member) override {
    if (member > 0) h_.next_member(header, input_ + ": member " + std::to_string(member + 1));
  }
  void begin_kernel(const stream::Kernel& k, const stream::Record&) override {
    kept_ = sel_.select(k.info());
    if (kept_) h_.kernel(k.info());
  }
  void insts(const stream::Kernel&, const InstTable& slice, const stream::Record&) override {
    if (kept_) h_.insts(slice);
  }
  void cta(const stream::Kernel&, const stream::CtaRecord& c) override {
    if (kept_) h_.cta_record(c);
  }
  void attached(const stream::Kernel&, const stream::Record& r) override {
    if (kept_) h_.other(r);
  }
  void memcpy(const stream::Record& r) override { h_.memcpy(stream::decode<Memcpy>(r)); }
  void other(const stream::Record& r) override { h_.other(r); }

 private:
  KernelSelector& sel_;
  TraceHandler& h_;
  const std::string& input_;
  bool kept_ = false;  // the open kernel's
};

}  // namespace

void read_stream(stream::Reader& reader, KernelSelector& selection, TraceHandler& handler) {
  SelectedKernels selected(selection, handler, reader.name());
  stream::read_kernels(reader, selected);
}

}  // namespace sasskit
