#include "archive_fixture.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace sasskit::testing {

void write_archive(const std::string& path, const std::vector<TraceItem>& items,
                   archive::WriterOptions options) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  archive::ArchiveWriter w(out, path, options);
  for (const TraceItem& item : items) {
    if (const auto* m = std::get_if<Memcpy>(&item)) {
      w.memcpy(*m);
      continue;
    }
    const auto& k = std::get<KernelTrace>(item);
    w.kernel(k.info);
    // Announce the table in two slices, as the Accel-Sim reader does.
    size_t half = k.table.size() / 2;
    w.insts(InstTable{k.info.id, 0, {k.table.begin(), k.table.begin() + half}});
    w.insts(InstTable{k.info.id, uint32_t(half), {k.table.begin() + half, k.table.end()}});
    for (const CtaTrace& c : k.ctas) w.cta(c);
  }
  w.finish();
}

std::vector<TraceItem> read_archive_file(const std::string& path) {
  archive::ArchiveReader r(path);
  std::vector<TraceItem> items;
  for (const archive::Entry& e : r.entries()) {
    if (const auto* m = std::get_if<Memcpy>(&e)) {
      items.emplace_back(*m);
      continue;
    }
    KernelTrace k;
    int tables = 0;
    r.read_kernel(std::get<archive::KernelEntry>(e),
                  accelsim::KernelSink{[&](const KernelInfo& i) { k.info = i; },
                                       [&](const InstTable& t) {
                                         ++tables;
                                         EXPECT_EQ(t.first, 0u);
                                         k.table = t.insts;
                                       },
                                       [&](const CtaTrace& c) { k.ctas.push_back(c); }});
    EXPECT_EQ(tables, 1);
    items.emplace_back(std::move(k));
  }
  return items;
}

std::string temp_path(const std::string& stem) {
  static int serial = 0;
  auto dir = std::filesystem::temp_directory_path() / ("sasskit-archive-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / (stem + std::to_string(serial++) + ".sass.z")).string();
}

}  // namespace sasskit::testing
