// Options every tool shares, declared once, and the wrapper that turns
// exceptions into one stderr line and an exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sasskit {

struct CommonOptions {
  unsigned threads = 1;
  bool quiet = false;
  bool force = false;          // write a binary stream to a terminal
  bool no_provenance = false;  // omit argv from the provenance (stream header, JSON report)
  std::vector<std::string> argv;
};

// The shared options a tool offers where they mean something: --threads
// where work runs in parallel, --force where a binary stream or archive is
// written, --no-provenance where a stream or a JSON report records its
// provenance.
struct SharedOptions {
  bool threads = false;
  bool force = false;
  bool provenance = false;
};

// A CLI11 app with --help, --version, --config FILE (any option can come from
// it), --quiet, and the `shared` options.
class ToolApp {
 public:
  ToolApp(std::string name, std::string description, int argc, char** argv, SharedOptions shared = {});
  CLI::App& app() { return app_; }
  CommonOptions& common() { return common_; }
  const std::string& name() const { return name_; }

  // Parses the command line and runs `body`; returns the exit status.
  // Usage errors print a short usage on stderr; --help and --version go to
  // stdout; sasskit::Error prints "tool: where: what".
  int run(const std::function<void()>& body);
  // `complete` runs before the tool lists its options (--help, the hint of
  // a usage error): it adds options registered only when named.
  void before_listing_options(std::function<void()> complete) { complete_options_.push_back(std::move(complete)); }

 private:
  void complete_options();

  std::string name_;
  CLI::App app_;
  std::vector<std::function<void()>> complete_options_;
  CommonOptions common_;
  int argc_;
  char** argv_;
};

std::string version_string();

// Option name (no dashes) -> value.
using OptionValues = std::map<std::string, std::string>;

// The options this run of the tool may change its results with, for its
// provenance entry (sasskit-stream(5)): each option given whose value
// differs from its default, as parsed (a number in its shortest exact form,
// a list joined by commas, a flag in effect as "true"). Left out: the
// inputs, --output, --threads, --quiet, --force, --no-provenance, --config,
// --help, --version and the GPU model's options (gpu_options.hpp records
// the model). Set by ToolApp::run once it has parsed; empty before.
const OptionValues& effective_options();

// Option checks that refuse NaN: CLI11's Range and PositiveNumber let it
// through, since every comparison with NaN is false.
CLI::Validator number_in(double lo, double hi);
CLI::Validator positive_number();

// Which kernels a run keeps, as the command line gives it: ids, and Nsight
// Compute's filters with ncu's meaning (-k, --kernel-name-base,
// --launch-skip, --launch-count). formats/kernel_selector.hpp applies it.
struct KernelSelectionOptions {
  std::string ids;                     // --kernels LIST
  std::string name;                    // -k NAME, or regex:EXPR
  std::string name_base = "function";  // function, demangled or mangled
  uint64_t launch_skip = 0;
  uint64_t launch_count = 0;  // 0: no limit
};

// Adds --kernels, -k/--kernel-name, --kernel-name-base, -s/--launch-skip
// and -c/--launch-count to `app`, filling `options`.
void add_kernel_selection_options(CLI::App& app, KernelSelectionOptions& options);

}  // namespace sasskit
