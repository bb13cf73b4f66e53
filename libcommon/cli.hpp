// Options every tool shares, declared once, and the wrapper that turns
// exceptions into one stderr line and an exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libcommon/kernel_selection.hpp"
#include "libcommon/version_string.hpp"

namespace sasskit {

// Option name (no dashes) -> value.
using OptionValues = std::map<std::string, std::string>;

struct CommonOptions {
  unsigned threads = 1;
  bool quiet = false;
  bool force = false;          // write a binary stream to a terminal
  bool no_provenance = false;  // omit argv from the provenance (stream header, JSON report)
  std::vector<std::string> argv;
  // The options this run of the tool may change its results with, for its
  // provenance entry (sasskit-stream(5)): each option given whose value
  // differs from its default, as parsed (a number in its shortest exact
  // form, a list joined by commas, a flag in effect as "true"). Left out:
  // the inputs, --output, --threads, --quiet, --force, --no-provenance,
  // --config, --help, --version and the GPU model's options (GpuOptions
  // records the model). Set by ToolApp::run once it has parsed.
  OptionValues effective_options;
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
  // `old_name` ("-s", "--policy") still reads as `new_name` ("--seed",
  // "--sched-policy"), for the scripts written with it, and warns once that
  // it is the old spelling (`why` says why it changed). It is not listed.
  void keep_old_spelling(std::string old_name, std::string new_name, std::string why);

 private:
  struct OldSpelling {
    std::string old_name, new_name, why;
  };
  void complete_options();
  // The command line with the old spellings written anew; `used` gets each
  // one it holds.
  std::vector<std::string> respelled_arguments(std::vector<const OldSpelling*>& used) const;

  std::string name_;
  CLI::App app_;
  std::vector<std::function<void()>> complete_options_;
  CommonOptions common_;
  std::vector<OldSpelling> old_spellings_;
  int argc_;
  char** argv_;
};

// Option checks that refuse NaN: CLI11's Range and PositiveNumber let it
// through, since every comparison with NaN is false.
CLI::Validator number_in(double lo, double hi);
CLI::Validator positive_number();

// Adds --kernels, -k/--kernel-name, --kernel-name-base, -s/--launch-skip
// and -c/--launch-count to `app`, filling `options`.
void add_kernel_selection_options(CLI::App& app, KernelSelectionOptions& options);

}  // namespace sasskit
