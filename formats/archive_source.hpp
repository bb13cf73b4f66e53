// An archive as a trace source for tools that read any trace
// (formats/trace_source.hpp): the selected kernels, through the index.
#pragma once

#include <string>
#include <string_view>

#include "formats/trace_source.hpp"
#include "libcommon/io.hpp"

namespace sasskit::archive {

// Feeds memcpy entries and the kernels `selection` keeps to `handler`, in
// archive order. Messages name the file `name` (default: `path`). `threads`
// decompress its blocks (ArchiveReader::read_kernel).
void read_archive(const std::string& path, KernelSelector& selection, TraceHandler& handler,
                  const std::string& name = {}, unsigned threads = 1);

// The same for an archive arriving through a pipe, `head` being the bytes
// already read from `in` to recognise it. An archive is read through its
// index, which is at its end, so it is first copied to a temporary file made
// with mkstemp in $TMPDIR (/tmp when unset), whose name is removed as soon
// as the copy is complete (and by a signal during the copy): no way the run
// ends leaves it behind.
void read_archive(Input& in, std::string_view head, KernelSelector& selection, TraceHandler& handler,
                  unsigned threads = 1);

}  // namespace sasskit::archive
