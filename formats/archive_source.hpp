// An archive as a trace source for tools that read any trace
// (formats/trace_source.hpp): the selected kernels, through the index.
#pragma once

#include <string>

#include "formats/trace_source.hpp"

namespace sasskit::archive {

// Feeds memcpy entries and the kernels `selection` keeps to `handler`, in
// archive order.
void read_archive(const std::string& path, KernelSelector& selection, TraceHandler& handler);

}  // namespace sasskit::archive
