#include "libcommon/model_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <sstream>

#include <sys/stat.h>

#include "libcommon/diag.hpp"
#include "libcommon/gpu_keys.hpp"
#include "libcommon/gpu_options.hpp"
#include "version.hpp"

namespace sasskit {

using gpu_keys::is_list;
using gpu_keys::Key;
using gpu_keys::lookup_key;

namespace {

// The tool reads GPU models: a bare --config name is a bundled model, never
// a file of the working folder (set by model_file_reader, read when --config is).
bool g_reads_models = false;
std::string g_model_path;  // the model file --config resolved to, for messages
std::string g_model_folder_warning;  // given once quiet() is known (warn_if_model_folder_is_open)

// The first line of `text` that sets `name` ("name = ..." or "name: "), or
// with an empty `name` the first [section] header; counted from 1, 0 when
// there is none.
size_t line_of(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  size_t n = 0;
  for (std::string line; std::getline(lines, line);) {
    ++n;
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    if (name.empty()) {
      if (line[start] == '[') return n;
      continue;
    }
    if (line.compare(start, name.size(), name) != 0) continue;
    const size_t after = line.find_first_not_of(" \t", start + name.size());
    if (after != std::string::npos && (line[after] == '=' || line[after] == ':')) return n;
  }
  return 0;
}

// A GPU model file is data: it sets model keys (sasskit-config(5)) and
// nothing else, so that a shared or planted model cannot redirect output,
// swap input or switch checks off. CLI11 would let it set any option.
// Of a key that takes one value, CLI11 would keep only the last part of an
// unquoted value with spaces or commas: such a line is refused too. (A key
// repeated on the command line still takes the last, as overrides expect.)
class ModelFileReader : public CLI::ConfigTOML {
 public:
  using Values = ModelFileValues;
  // `read` gets the file's values, key -> the values it gives, once checked.
  explicit ModelFileReader(std::function<void(Values)> read) : read_(std::move(read)) {}

  // Hands CLI11 no items: GpuOptions::config() applies the file's values
  // itself, below the command line's. CLI11 would look each item up by
  // comparing it with every option (a copy of their names each time), most
  // of a tool's start-up.
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    std::string text{std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
    std::istringstream in(text);
    Values values;
    for (const CLI::ConfigItem& item : CLI::ConfigTOML::from_config(in)) {
      const bool in_section = !item.parents.empty();
      // Found only for a message: a search of the text per item made reading a model quadratic.
      const auto at = [&] {
        return g_model_path + ":" + std::to_string(line_of(text, in_section ? "" : item.name)) + ": ";
      };
      if (in_section)
        throw CLI::ConfigError(at() + "a GPU model file has no [sections]; its keys stand at the top level");
      const Key* key = lookup_key(item.name);
      if (!key)
        throw CLI::ConfigError(at() + "'" + item.name +
                               "' is not a GPU model key (sasskit-config(5)); a model file sets model keys only");
      if (item.inputs.size() >= 2 && !is_list(*key))
        throw CLI::ConfigError(at() + key->name + " takes one value, the config file gives " +
                               std::to_string(item.inputs.size()) +
                               " (quote a text value that holds spaces or commas)");
      values.emplace(item.name, item.inputs);  // a key given twice: the first, as CLI11 took it
    }
    read_(std::move(values));
    return {};
  }

 private:
  std::function<void(Values)> read_;
};

// A model found in a folder that others may write to could have been planted.
void note_if_others_may_write(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    g_model_folder_warning = "the folder is writable by others, who may change its models";
}

}  // namespace

std::shared_ptr<CLI::Config> model_file_reader(std::function<void(ModelFileValues)> read) {
  g_reads_models = true;
  return std::make_shared<ModelFileReader>(std::move(read));
}

void warn_if_model_folder_is_open() {
  if (!g_model_folder_warning.empty()) warn(g_model_path, g_model_folder_warning);
}

std::vector<std::string> config_search_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("SASSKIT_CONFIG_PATH")) {
    std::stringstream paths(env);
    for (std::string dir; std::getline(paths, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  if (auto bundled = bundled_config_dir()) dirs.push_back(*bundled);
  return dirs;
}

std::optional<std::string> bundled_config_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return (exe.parent_path() / SASSKIT_CONFIG_FROM_BIN).string();
}

std::string resolve_config_file(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name.find('/') != std::string::npos) return name;
  if (!g_reads_models && fs::is_regular_file(name, ec)) return name;  // a tool's options file
  for (const auto& dir : config_search_dirs()) {
    for (const auto& candidate : {dir + "/" + name, dir + "/" + name + ".cfg"}) {
      if (!fs::is_regular_file(candidate, ec)) continue;
      if (g_reads_models) note_if_others_may_write(dir);
      return candidate;
    }
  }
  return "";
}

CLI::Validator config_file_resolver() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::string path = resolve_config_file(value);
        if (path.empty()) {
          std::error_code ec;
          const std::string local = g_reads_models && std::filesystem::is_regular_file(value, ec)
                                        ? "; for the file in this folder write ./" + value
                                        : "";
          return "no file and no bundled GPU model named '" + value +
                 "' (bundled models are in " + bundled_config_dir().value_or("bin/" SASSKIT_CONFIG_FROM_BIN) +
                 "; set SASSKIT_CONFIG_PATH for more" + local + ")";
        }
        value = path;
        g_model_path = path;
        return "";
      },
      "");
}

}  // namespace sasskit
