#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "libcommon/progress.hpp"

using namespace sasskit;
namespace fs = std::filesystem;

namespace {
fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("sasskit-io-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string slurp(Input& in) {
  std::ostringstream s;
  s << in.stream().rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
}  // namespace

TEST(Input, ReadsPlainGzipAndXzByContentNotName) {
  const std::string text = "line one\nline two\n";
  fs::path plain = scratch("plain.txt");
  write_file(plain, text);
  fs::path gz = scratch("looks-plain.txt");
  fs::path xz = scratch("also-plain.dat");
  ASSERT_EQ(std::system(("gzip -c " + plain.string() + " > " + gz.string()).c_str()), 0);
  ASSERT_EQ(std::system(("xz -c " + plain.string() + " > " + xz.string()).c_str()), 0);
  for (const auto& p : {plain, gz, xz}) {
    Input in(p.string());
    EXPECT_EQ(slurp(in), text) << p;
  }
}

// Reads of every size, small ones from the sniffed head and the buffer,
// large ones straight from the file, give the file's bytes in order.
TEST(Input, ReadsOfAnySizeGiveTheFileInOrder) {
  std::string text;
  for (int i = 0; text.size() < 300000; ++i) text += "line " + std::to_string(i) + "\n";
  const fs::path p = scratch("sizes.txt");
  write_file(p, text);
  Input in(p.string());
  std::string got;
  for (std::streamsize n : {3, 1, 70000, 5, 200000, 100000}) {
    std::string block(static_cast<size_t>(n), '\0');
    in.stream().read(block.data(), n);
    got.append(block.data(), static_cast<size_t>(in.stream().gcount()));
  }
  EXPECT_EQ(got.size(), text.size());
  EXPECT_EQ(got, text);
  EXPECT_TRUE(in.stream().eof());
}

TEST(Input, DamagedGzipIsBadInputNamingTheFile) {
  fs::path gz = scratch("damaged.gz");
  write_file(gz, std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03not deflate", 21));
  try {
    Input in(gz.string());
    for (std::string line; std::getline(in.stream(), line);) {
    }
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_EQ(e.where(), gz.string());
  }
}

TEST(Input, MissingFileIsAnIoErrorNamingIt) {
  try {
    Input in("/nonexistent/file.traceg");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Io);
    EXPECT_EQ(e.where(), "/nonexistent/file.traceg");
  }
}

TEST(Output, CommitRenamesAndAbandonLeavesNothing) {
  fs::path target = scratch("out.bin");
  fs::remove(target);
  {
    Output out(target.string(), OutputKind::Binary);
    out.stream() << "partial";
    // destroyed without commit: a failed run
  }
  EXPECT_FALSE(fs::exists(target));
  for (const auto& entry : fs::directory_iterator(target.parent_path()))
    EXPECT_EQ(entry.path().string().find("out.bin.tmp"), std::string::npos) << entry.path();
  {
    Output out(target.string(), OutputKind::Binary);
    out.stream() << "complete";
    out.commit();
  }
  std::ifstream in(target);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "complete");
}

TEST(Output, TemporariesAreNewFilesNeverLinksFollowed) {
  fs::path target = scratch("excl.bin");
  int fd = -1;
  std::string a, b;
  {
    const Temporary open = create_temporary_beside(target.string(), &fd);
    const Temporary closed = create_temporary_beside(target.string());
    a = open.path();
    b = closed.path();
    ASSERT_GE(fd, 0);
    ::close(fd);
    EXPECT_NE(a, b);  // each call makes a file of its own
    EXPECT_EQ(a.rfind(target.string() + ".tmp", 0), 0u) << a;
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(a)));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(b)));
  }
  EXPECT_FALSE(fs::exists(a));  // a temporary not renamed into place is removed
  EXPECT_FALSE(fs::exists(b));
}

TEST(Output, MissingDirectoryIsAnIoError) {
  try {
    Output out("/nonexistent-dir/out.bin", OutputKind::Binary);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Io);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
  }
}

TEST(Progress, PercentAndTimeLeft) {
  EXPECT_EQ(sasskit::percent_and_eta(0, 100, 0), "0%");
  EXPECT_EQ(sasskit::percent_and_eta(25, 100, 0.5), "25%");  // no rate before 1 s
  EXPECT_EQ(sasskit::percent_and_eta(25, 100, 20), "25%, 1m00s left");
  EXPECT_EQ(sasskit::percent_and_eta(200, 100, 20), "100%, 0m00s left");
}

TEST(Progress, ReaderPassesTheBytesThrough) {
  std::istringstream source(std::string(200000, 'x') + "end");
  auto shown = sasskit::progress_reader(*source.rdbuf(), 200003, "test");
  std::istream in(shown.get());
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all.size(), 200003u);
  EXPECT_EQ(all.substr(199998), "xxend");
}
