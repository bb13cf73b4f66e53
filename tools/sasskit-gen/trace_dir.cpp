#include "trace_dir.hpp"

#include <filesystem>
#include <memory>
#include <optional>

#include "formats/accelsim.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"

namespace sasskit::gen {

namespace {

namespace fs = std::filesystem;

void make_directory(const std::string& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  if (fs::exists(fs::symlink_status(dir, ec))) fail_io(dir, "cannot create the output directory: a file of that name exists");
  if (!fs::create_directories(dir, ec))
    fail_io(dir, "cannot create the output directory: " +
                     (ec ? ec.message() : std::string("a file of that name exists")));
}

// Streams each launch into its own Output as the generator produces it.
class KernelFiles {
 public:
  explicit KernelFiles(std::function<std::string(const KernelInfo&)> path_of)
      : path_of_(std::move(path_of)) {}

  TraceSink sink(std::vector<accelsim::ListEntry>& list) {
    return TraceSink{[&list](const Memcpy& m) { list.emplace_back(m); },
                     [this, &list](const KernelInfo& k, const InstTable& table) {
                       list.emplace_back(k.trace_file);
                       out_.emplace(path_of_(k), OutputKind::Text);
                       writer_ = std::make_unique<accelsim::KernelTraceWriter>(out_->stream(), k);
                       writer_->insts(table);
                     },
                     [this](const CtaTrace& cta) { writer_->cta(cta); },
                     [this](const KernelInfo&) {
                       writer_.reset();
                       out_->commit();
                       out_.reset();
                     }};
  }

 private:
  std::function<std::string(const KernelInfo&)> path_of_;
  std::optional<Output> out_;
  std::unique_ptr<accelsim::KernelTraceWriter> writer_;
};

}  // namespace

void write_trace_dir(const GenOptions& options, const std::string& dir) {
  std::vector<accelsim::ListEntry> list;
  KernelFiles files([&](const KernelInfo& k) {
    make_directory(dir);  // only once the options have proved valid
    return (fs::path(dir) / k.trace_file).string();
  });
  generate(options, files.sink(list));
  Output out((fs::path(dir) / "kernelslist.g").string(), OutputKind::Text);
  accelsim::write_kernel_list(out.stream(), list);
  out.commit();
}

void write_single_kernel(const GenOptions& options, const std::string& path) {
  if (options.kernels.size() * options.repeat != 1)
    fail_usage("writing to '" + path + "' takes exactly one launch; use -o DIR for several");
  std::vector<accelsim::ListEntry> list;
  KernelFiles files([&](const KernelInfo&) { return path; });
  generate(options, files.sink(list));
}

}  // namespace sasskit::gen
