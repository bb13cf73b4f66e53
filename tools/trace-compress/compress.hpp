// trace-compress's library: any trace source (Accel-Sim directory or
// kernelslist.g, or the sasskit stream) into the archive.
#pragma once

#include <string>

#include "formats/archive.hpp"
#include "libcommon/cli.hpp"

namespace sasskit::compress {

struct Options {
  std::string input;
  std::string output = "-";
  archive::WriterOptions writer;
};

// Throws sasskit::Error on bad input or failed output; leaves no partial file.
void run(const Options& options, const CommonOptions& common);

}  // namespace sasskit::compress
