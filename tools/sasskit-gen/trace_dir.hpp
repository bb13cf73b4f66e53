// Writes a generated trace as Accel-Sim text through formats/accelsim.hpp.
#pragma once

#include <string>

#include "generator.hpp"

namespace sasskit::gen {

// A directory with kernelslist.g and kernel-N.traceg, created if missing
// (its parent must exist). Each file appears whole or not at all, and
// kernelslist.g is written last, so a failed run never leaves a trace
// that looks complete.
void write_trace_dir(const GenOptions& options, const std::string& dir);

// One launch's kernel-1.traceg to `path` ("-" = stdout): usage error when
// the options describe more than one launch.
void write_single_kernel(const GenOptions& options, const std::string& path);

}  // namespace sasskit::gen
