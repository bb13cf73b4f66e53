// The GPU model as command-line options: every GpuConfig key is an option of
// the tool (--num-sms, --l2-size, --unit-sp-latency, ...) and therefore also
// a key of its --config file (sasskit-config(5)).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcommon/cli.hpp"
#include "libcommon/gpu_config.hpp"
#include "libcommon/model_in_use.hpp"

namespace sasskit {

// Registers the GPU keys, --dump-config and --import-accelsim DIR on the
// tool's app. Typical use in a tool's main:
//   sasskit::GpuOptions gpu(tool);
//   return tool.run([&] { const GpuConfig cfg = gpu.config(); ... });
class GpuOptions {
 public:
  // Every key an option of `app` at once (an app of one's own, the tests).
  explicit GpuOptions(CLI::App& app);
  // The keys the tool's command line names (--KEY or --KEY=VALUE) become
  // options at once, the others only when the tool lists its options
  // (--help, a usage error's hint): CLI11 compares each option it adds
  // with every other, which for the hundred keys was most of a tool's
  // start-up. What the tool accepts is the same.
  explicit GpuOptions(ToolApp& tool);

  // The validated model: built-in defaults, overridden by --import-accelsim,
  // overridden by the --config file, overridden by the command line. With
  // --dump-config it prints the model as a config file on stdout and throws
  // CLI::Success (ToolApp exits 0): call it before opening any output.
  GpuConfig config() const;
  // --accept-other-gpu: use stream records computed for another GPU model.
  bool accept_other_gpu() const { return accept_other_gpu_; }
  // The model config() built, for the tool's provenance entry; nullopt
  // until it has built one.
  const std::optional<ModelInUse>& model_in_use() const { return model_in_use_; }

 private:
  static constexpr const char* kGroup = "GPU model (keys of the --config file, see sasskit-config(5))";

  // `command_line`: the keys to add at once; null for all.
  GpuOptions(CLI::App& app, const std::vector<std::string>* command_line);
  void add_key_options();
  void add_key_option(size_t key);
  // Which keys the command line gives, in key order.
  std::vector<bool> keys_given() const;
  // Key `key`'s values in the --config file; null when it gives none.
  const std::vector<std::string>* file_values_of(size_t key) const;
  static void set(GpuConfig& gpu, size_t key, const std::vector<std::string>& values);
  // `start` (the built-in or imported model) with the --config file's
  // values of the keys `on_command_line` gives: the model they override.
  GpuConfig without_command_line(GpuConfig start, const std::vector<bool>& on_command_line) const;

  CLI::App& app_;
  std::vector<CLI::Option*> options_;  // one per key, in key order; null until added
  // The --config file's values, key -> values, as the file gives them.
  std::map<std::string, std::vector<std::string>> file_values_;
  std::string import_dir_;
  bool dump_ = false;
  bool accept_other_gpu_ = false;
  mutable std::optional<ModelInUse> model_in_use_;  // set by config()
};

// Key names in the order sasskit-config(5) and --dump-config list them.
std::vector<std::string> gpu_config_keys();

// Sets one key from its text form ("8MiB", "gto", "true", "[0, 8, 16]");
// a bad value is a usage error naming the key.
void set_gpu_config_value(GpuConfig& gpu, std::string_view key, std::string_view value);

// The model as a CLI11 config file that --config reads back unchanged.
std::string dump_config(const GpuConfig& gpu);

// Whether `name` (no dashes) is one of GpuOptions' options that build the
// model (a key, --import-accelsim, --dump-config): the model's fingerprint
// stands for them in provenance. --accept-other-gpu is not.
bool is_gpu_model_option(const std::string& name);

// A stable fingerprint of the model's values (sasskit-stream(5)): the
// 64-bit FNV-1a hash of dump_config's "key = value" lines, all keys but
// name, as 16 hex digits. A model renamed keeps it; a changed value
// changes it.
std::string model_fingerprint(const GpuConfig& gpu);

// The keys only cache hit rates depend on: capacity and ways of L1 and L2,
// and L1's write policy. rd-cache computes hit rates with them and its
// cache records carry them; pipe-sim without those records, and cta-sample,
// never read them.
bool is_hit_rate_key(const std::string& key);

// Once, a warning naming the hit-rate keys whose value the command line
// changed (`model`'s keys_changed), and `why` this stage ignores them;
// nothing when it changed none.
void warn_hit_rate_keys_ignored(const ModelInUse& model, const std::string& why);

// Where bundled data is looked up, in order: each directory of
// $SASSKIT_CONFIG_PATH (colon-separated), then bundled_config_dir().
std::vector<std::string> config_search_dirs();

// The bundled GPU models and opcode tables: share/sasskit/configs beside
// the executable's bin/ (installed or in the build tree, where it links to
// the sources' configs/), so a moved install still finds them. Empty when
// the executable's path is unknown (no /proc).
std::optional<std::string> bundled_config_dir();

// A --config argument: a path (it holds a '/') as is; otherwise a bundled
// model name looked up as NAME or NAME.cfg in config_search_dirs(), with a
// warning when the folder is writable by others. In a tool without GPU
// options (no GpuOptions), a bare name is first a file of the working folder:
// its options file. Returns "" when nothing matches.
std::string resolve_config_file(const std::string& name_or_path);

// The CLI11 transform that ToolApp puts on --config.
CLI::Validator config_file_resolver();

}  // namespace sasskit
