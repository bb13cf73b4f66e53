// GPU model files (libcommon-internal, behind gpu_options.hpp): where
// --config finds a model, and the reader that lets a model file set model
// keys and nothing else.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sasskit {

// A model file's values: key -> the values it gives.
using ModelFileValues = std::map<std::string, std::vector<std::string>>;

// The --config reader of a tool with GPU options: `read` gets the file's
// values once checked. From then on a bare --config name is a bundled
// model, never a file of the working folder.
std::shared_ptr<CLI::Config> model_file_reader(std::function<void(ModelFileValues)> read);

// The warning, once, that the model --config found lies in a folder others
// may write to; nothing otherwise. Called once quiet() is known.
void warn_if_model_folder_is_open();

}  // namespace sasskit
