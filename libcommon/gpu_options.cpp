#include "libcommon/gpu_options.hpp"

#include <cctype>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>

#include "libcommon/accelsim_config.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/gpu_keys.hpp"
#include "libcommon/model_files.hpp"

namespace sasskit {

using gpu_keys::Key;
using gpu_keys::keys;
using gpu_keys::lookup_key;

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

// `without_command_line`: the model the command line's keys override.
ModelInUse describe_model(const GpuConfig& gpu, const std::vector<bool>& on_command_line,
                          GpuConfig without_command_line) {
  ModelInUse model{gpu.name, model_fingerprint(gpu), {}, {}};
  GpuConfig copy = gpu;
  for (size_t i = 0; i < keys().size(); ++i) {
    if (!on_command_line[i]) continue;
    const Key& key = keys()[i];
    const std::string value = gpu_keys::value_text(key, copy);
    model.keys_given[key.name] = value;
    if (value != gpu_keys::value_text(key, without_command_line)) model.keys_changed.push_back(key.name);
  }
  return model;
}
}  // namespace

std::vector<std::string> gpu_config_keys() {
  std::vector<std::string> names;
  for (const Key& k : keys()) names.push_back(k.name);
  return names;
}

void set_gpu_config_value(GpuConfig& gpu, std::string_view key_name, std::string_view value) {
  gpu_keys::set_value(gpu, gpu_keys::find_key(key_name), value);
}

std::string dump_config(const GpuConfig& gpu) {
  GpuConfig copy = gpu;
  std::ostringstream out;
  out << "# GPU model " << gpu.name << ", as a sasskit config file (sasskit-config(5))\n";
  for (const Key& k : keys()) out << k.name << " = " << gpu_keys::value_text(k, copy) << "\n";
  return out.str();
}

GpuOptions::GpuOptions(CLI::App& app) : GpuOptions(app, nullptr) {}

GpuOptions::GpuOptions(ToolApp& tool) : GpuOptions(tool.app(), &tool.common().argv) {
  tool.before_listing_options([this] { add_key_options(); });
}

GpuOptions::GpuOptions(CLI::App& app, const std::vector<std::string>* command_line)
    : app_(app), options_(keys().size(), nullptr) {
  const std::string group = kGroup;
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.config_formatter(model_file_reader([this](ModelFileValues values) { file_values_ = std::move(values); }));
  if (command_line) {
    for (const std::string& arg : *command_line) {
      if (!arg.starts_with("--")) continue;
      if (const Key* key = lookup_key(std::string_view(arg).substr(2, arg.find('=') - 2)))
        add_key_option(static_cast<size_t>(key - keys().data()));
    }
  } else {
    add_key_options();
  }
  app.add_option("--import-accelsim", import_dir_,
                 "Start from an Accel-Sim config: DIR/gpgpusim.config and DIR/trace.config")
      ->group(group)
      ->check(CLI::ExistingDirectory);
  app.add_flag("--dump-config", dump_, "Print the effective GPU model as a config file and exit")
      ->group(group);
  app.add_flag("--accept-other-gpu", accept_other_gpu_,
               "Use input records computed for another GPU model (refused by default)")
      ->group(group);
}

void GpuOptions::add_key_options() {
  for (size_t i = 0; i < keys().size(); ++i) add_key_option(i);
}

void GpuOptions::add_key_option(size_t i) {
  if (options_[i]) return;
  const Key& k = keys()[i];
  std::string help = k.help;
  help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  CLI::Option* opt = app_.add_option("--" + k.name)->description(help)->group(kGroup)->type_name(gpu_keys::type_name(k));
  if (gpu_keys::is_list(k)) {
    opt->expected(1, 64)->delimiter(',');
  } else {
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  options_[i] = opt;
}

const std::vector<std::string>* GpuOptions::file_values_of(size_t i) const {
  const auto in_file = file_values_.find(keys()[i].name);
  return in_file == file_values_.end() || in_file->second.empty() ? nullptr : &in_file->second;
}

GpuConfig GpuOptions::config() const {
  GpuConfig gpu = import_dir_.empty() ? GpuConfig{} : import_accelsim(import_dir_);
  const GpuConfig start = gpu;
  const std::vector<bool> on_command_line = keys_given();
  for (size_t i = 0; i < keys().size(); ++i)
    if (const auto* values = on_command_line[i] ? &options_[i]->results() : file_values_of(i)) set(gpu, i, *values);
  validate(gpu);
  model_in_use_ = describe_model(gpu, on_command_line, without_command_line(start, on_command_line));
  warn_if_model_folder_is_open();
  if (dump_) {
    std::cout << dump_config(gpu) << std::flush;
    throw CLI::Success();
  }
  return gpu;
}

void GpuOptions::set(GpuConfig& gpu, size_t i, const std::vector<std::string>& values) {
  const Key& key = keys()[i];
  gpu_keys::set_value(gpu, key, gpu_keys::is_list(key) ? join(values) : values.back());
}

GpuConfig GpuOptions::without_command_line(GpuConfig start, const std::vector<bool>& on_command_line) const {
  for (size_t i = 0; i < keys().size(); ++i) {
    const std::vector<std::string>* in_file = on_command_line[i] ? file_values_of(i) : nullptr;
    if (!in_file) continue;
    try {
      set(start, i, *in_file);
    } catch (const Error&) {
      // A value the command line overrode was never used: the key counts as changed.
    }
  }
  return start;
}

std::vector<bool> GpuOptions::keys_given() const {
  std::vector<bool> given;
  for (const CLI::Option* opt : options_) given.push_back(opt && opt->count() > 0);
  return given;
}

bool is_gpu_model_option(const std::string& name) {
  return name == "import-accelsim" || name == "dump-config" || lookup_key(name);
}

std::string model_fingerprint(const GpuConfig& gpu) {
  GpuConfig copy = gpu;
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const Key& k : keys()) {
    if (k.name == "name") continue;
    for (unsigned char c : k.name + " = " + gpu_keys::value_text(k, copy) + "\n")
      hash = (hash ^ c) * 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

bool is_hit_rate_key(const std::string& key) {
  static const std::set<std::string> hit_rate_keys = {"l1d-size",           "l1d-assoc", "l1d-write-policy",
                                                      "l1d-write-allocate", "l2-size",   "l2-assoc"};
  return hit_rate_keys.count(key) > 0;
}

void warn_hit_rate_keys_ignored(const ModelInUse& model, const std::string& why) {
  std::string keys;
  for (const std::string& key : model.keys_changed)
    if (is_hit_rate_key(key)) keys += (keys.empty() ? "--" : ", --") + key;
  if (keys.empty()) return;
  warn("", keys + " changed nothing: " + why);
}

}  // namespace sasskit
