// How ToolApp finds the options a run may change its results with
// (CommonOptions::effective_options in cli.hpp, recorded in provenance).
#pragma once

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace sasskit {

// Before parsing: each option's default as parsed, for the options that may
// change results (flags aside: a flag given is in effect or not).
OptionValues option_defaults(CLI::App& app);

// After parsing: the options given that may change results and whose
// parsed value differs from `defaults` (option_defaults()).
OptionValues options_given(const CLI::App& app, const OptionValues& defaults);

}  // namespace sasskit
