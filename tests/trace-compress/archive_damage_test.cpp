// A damaged or cut archive is always a BadInput error with a message that
// says so; never a crash, a hang or wrong data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "archive_fixture.hpp"
#include "libcommon/diag.hpp"
#include "test_traces.hpp"

using namespace sasskit;
using namespace sasskit::testing;

namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The message of the error reading `path` raises, or "" when it reads fine.
std::string read_error(const std::string& path, std::vector<TraceItem>* items = nullptr) {
  try {
    auto got = read_archive_file(path);
    if (items) *items = got;
    return "";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput) << e.what();
    return e.where() + ": " + e.what();
  }
}

std::string small_archive(std::vector<TraceItem>& items) {
  GenOptions g;
  g.grid = {2, 1, 1};
  g.warps = 2;
  g.iterations = 1;
  items = {Memcpy{1, 2}, generate_kernel(g)};
  g.id = 3;
  items.push_back(generate_kernel(g));
  archive::WriterOptions o;
  o.block_bytes = 1;  // several blocks per kernel
  std::string path = temp_path("dmg");
  write_archive(path, items, o);
  return path;
}

}  // namespace

TEST(ArchiveDamage, EveryCutIsReportedAsTruncated) {
  std::vector<TraceItem> items;
  std::string path = small_archive(items);
  std::string bytes = read_bytes(path);
  std::string cut_path = temp_path("cut");
  for (size_t n = 8; n < bytes.size(); n += n % 5 + 1) {
    write_bytes(cut_path, bytes.substr(0, n));
    std::string msg = read_error(cut_path);
    EXPECT_NE(msg.find(cut_path + ": truncated archive ("), std::string::npos) << "cut at " << n << ": " << msg;
  }
}

TEST(ArchiveDamage, NamesTheKernelBlockWhereTheFileWasCut) {
  std::vector<TraceItem> items;
  std::string path = small_archive(items);
  std::string bytes = read_bytes(path);
  std::string cut_path = temp_path("cut");
  write_bytes(cut_path, bytes.substr(0, archive::kHeaderSize + archive::kBlockHeaderSize + 1));
  EXPECT_EQ(read_error(cut_path), cut_path + ": truncated archive (kernel 1 block at offset 12)");
}

TEST(ArchiveDamage, EveryFlippedByteIsCaught) {
  std::vector<TraceItem> items;
  std::string path = small_archive(items);
  std::string bytes = read_bytes(path);
  std::string bad = temp_path("flip");
  for (size_t i = 0; i < bytes.size(); i += i % 3 + 1) {
    std::string copy = bytes;
    copy[i] = static_cast<char>(copy[i] ^ 0x41);
    write_bytes(bad, copy);
    std::vector<TraceItem> got;
    std::string msg = read_error(bad, &got);
    bool minor_version = i == 10 || i == 11;  // a higher minor version is accepted
    if (minor_version)
      EXPECT_EQ(got, items);
    else
      EXPECT_FALSE(msg.empty()) << "flip at byte " << i << " went unnoticed";
  }
}

TEST(ArchiveDamage, WrongMagicIsNotAnArchive) {
  std::string path = temp_path("magic");
  write_bytes(path, "-kernel name = foo\n-kernel id = 1\n");
  EXPECT_EQ(read_error(path), path + ": not a sasskit archive");
  write_bytes(path, "");
  EXPECT_EQ(read_error(path), path + ": not a sasskit archive");
}

TEST(ArchiveDamage, UnknownMajorVersionIsRefused) {
  std::vector<TraceItem> items;
  std::string bytes = read_bytes(small_archive(items));
  bytes[8] = 2;
  std::string path = temp_path("ver");
  write_bytes(path, bytes);
  EXPECT_EQ(read_error(path), path + ": archive format version 2.0 is not supported (this is 1.0)");
}

TEST(ArchiveDamage, ForgedBlockSizeAllocatesNothing) {
  std::vector<TraceItem> items;
  std::string bytes = read_bytes(small_archive(items));
  // The first block's raw size (header bytes 6..9) claims the 1 GiB limit.
  std::string forged = bytes;
  for (int i = 0; i < 4; ++i) forged[archive::kHeaderSize + 6 + i] = i == 3 ? 0x40 : 0;
  std::string path = temp_path("forged");
  write_bytes(path, forged);
  std::string msg = read_error(path);
  EXPECT_NE(msg.find("damaged archive"), std::string::npos) << msg;
}

TEST(ArchiveDamage, MissingFileIsAnIoError) {
  try {
    archive::ArchiveReader r("/nonexistent/a.sass.z");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Io);
  }
}
