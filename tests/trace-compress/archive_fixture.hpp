// Generated traces for the archive tests, and a writer/reader round trip.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "formats/archive.hpp"

namespace sasskit::testing {

// One kernel as the reader hands it back.
struct KernelTrace {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;
  bool operator==(const KernelTrace&) const = default;
};
using TraceItem = std::variant<Memcpy, KernelTrace>;

// Writes `items` with `options` into an archive file at `path`.
void write_archive(const std::string& path, const std::vector<TraceItem>& items,
                   archive::WriterOptions options = {});
// Reads every entry back.
std::vector<TraceItem> read_archive_file(const std::string& path);

// A unique file name under the test temp dir.
std::string temp_path(const std::string& stem);

}  // namespace sasskit::testing
