#include "libcommon/heap.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sasskit {
namespace {

struct Mapping {
  bool heap = false;
  bool huge_advised = false;  // VmFlags "hg": madvise(MADV_HUGEPAGE)
  size_t size_kib = 0, rss_kib = 0;
};

std::vector<Mapping> heap_mappings() {
  std::ifstream smaps("/proc/self/smaps");
  std::vector<Mapping> all;
  for (std::string line; std::getline(smaps, line);) {
    std::istringstream in(line);
    std::string first;
    in >> first;
    if (first.find('-') != std::string::npos && first.back() != ':') {
      all.emplace_back().heap = line.ends_with("[heap]");
    } else if (!all.empty() && first == "Size:") {
      in >> all.back().size_kib;
    } else if (!all.empty() && first == "Rss:") {
      in >> all.back().rss_kib;
    } else if (!all.empty() && first == "VmFlags:") {
      for (std::string flag; in >> flag;) all.back().huge_advised |= flag == "hg";
    }
  }
  std::erase_if(all, [](const Mapping& m) { return !m.heap; });
  return all;
}

TEST(Heap, AdvisesHugePagesOnUntouchedReserveOnce) {
  if (!kTunesHeap) GTEST_SKIP() << "not glibc's heap in this build";
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled") ||
      !std::filesystem::exists("/proc/self/smaps"))
    GTEST_SKIP() << "no transparent huge pages or no /proc here";
  tune_heap();
  tune_heap();  // a second call changes nothing
  size_t advised_kib = 0, advised_rss_kib = 0, parts = 0;
  for (const Mapping& m : heap_mappings())
    if (m.huge_advised) {
      advised_kib += m.size_kib;
      advised_rss_kib += m.rss_kib;
      ++parts;
    }
  EXPECT_EQ(parts, 1u);
  // The padding glibc keeps on the heap's top, less the part before the
  // first huge-page boundary.
  EXPECT_GE(advised_kib, (kHugePageHeap >> 10) - 2048);
  // Advised, not touched: the reserve costs no memory until it is used.
  EXPECT_LT(advised_rss_kib, (kHugePageHeap >> 10) / 4);
}

}  // namespace
}  // namespace sasskit
