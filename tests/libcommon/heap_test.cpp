#include "libcommon/heap.hpp"
#include "libcommon/zeroed_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace sasskit {
namespace {

struct Mapping {
  uintptr_t from = 0, to = 0;
  bool heap = false;
  bool huge_advised = false;  // VmFlags "hg": madvise(MADV_HUGEPAGE)
  size_t size_kib = 0, rss_kib = 0;
};

std::vector<Mapping> mappings() {
  std::ifstream smaps("/proc/self/smaps");
  std::vector<Mapping> all;
  for (std::string line; std::getline(smaps, line);) {
    std::istringstream in(line);
    std::string first;
    in >> first;
    if (first.find('-') != std::string::npos && first.back() != ':') {
      Mapping& m = all.emplace_back();
      m.heap = line.ends_with("[heap]");
      m.from = std::stoull(first.substr(0, first.find('-')), nullptr, 16);
      m.to = std::stoull(first.substr(first.find('-') + 1), nullptr, 16);
    } else if (!all.empty() && first == "Size:") {
      in >> all.back().size_kib;
    } else if (!all.empty() && first == "Rss:") {
      in >> all.back().rss_kib;
    } else if (!all.empty() && first == "VmFlags:") {
      for (std::string flag; in >> flag;) all.back().huge_advised |= flag == "hg";
    }
  }
  return all;
}

std::vector<Mapping> heap_mappings() {
  std::vector<Mapping> all = mappings();
  std::erase_if(all, [](const Mapping& m) { return !m.heap; });
  return all;
}

bool has_huge_pages_tunable() {
  return kTunesHeap && std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled") &&
         std::filesystem::exists("/proc/self/smaps");
}

TEST(Heap, AdvisesHugePagesOnUntouchedReserveOnce) {
  if (!has_huge_pages_tunable()) GTEST_SKIP() << "not glibc's heap, no transparent huge pages or no /proc here";
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
  // first huge-page boundary and what glibc trims off when the block that
  // grew the heap is freed (depending on where the heap starts).
  EXPECT_GE(advised_kib, (kHugePageHeap >> 10) / 2);
  // Advised, not touched: the reserve costs no memory until it is used.
  EXPECT_LT(advised_rss_kib, (kHugePageHeap >> 10) / 4);
}

// The heap's free top starts below the first huge-page boundary of the
// advised range; the part before it is filled, so that the first large block
// after tuning lies in the advised range, not in small pages below it.
TEST(Heap, NewBlocksStartInTheAdvisedRange) {
  if (!has_huge_pages_tunable()) GTEST_SKIP() << "not glibc's heap, no transparent huge pages or no /proc here";
  tune_heap();
  void* volatile p = std::malloc(size_t(1) << 20);
  const auto block = reinterpret_cast<uintptr_t>(p);
  bool found = false;
  for (const Mapping& m : heap_mappings())
    if (block >= m.from && block < m.to) {
      found = true;
      EXPECT_TRUE(m.huge_advised) << "the block lies in the heap's part below the advised range";
    }
  std::free(p);
  EXPECT_TRUE(found);
}

// A thread's arena has a heap apart from the main one; where the thread's
// blocks are, the mapping is advised too.
TEST(Heap, AdvisesHugePagesOnAThreadsHeap) {
  if (!has_huge_pages_tunable()) GTEST_SKIP() << "not glibc's heap, no transparent huge pages or no /proc here";
  uintptr_t block = 0;
  std::thread([&] {
    tune_thread_heap();
    void* volatile p = std::malloc(64);
    block = reinterpret_cast<uintptr_t>(p);
    std::free(p);
  }).join();
  bool advised = false, found = false;
  for (const Mapping& m : mappings())
    if (block >= m.from && block < m.to) {
      found = true;
      advised = m.huge_advised;
      EXPECT_FALSE(m.heap) << "a thread's blocks came from the main heap";
    }
  EXPECT_TRUE(found);
  EXPECT_TRUE(advised);
}

// The archive coder's tables (zeroed_pages.hpp): zeroed, on a 2 MiB
// boundary, advised for huge pages, and given back whole.
TEST(ZeroedPages, AreZeroAlignedAndAdvised) {
  const size_t bytes = (size_t(1) << 18) * 24 + 100;  // not a whole number of pages
  auto* pages = static_cast<unsigned char*>(map_zeroed_pages(bytes));
  const auto from = reinterpret_cast<uintptr_t>(pages);
  EXPECT_EQ(from % kHugePage, 0u);
  std::vector<unsigned char> zeros(bytes);
  EXPECT_EQ(std::memcmp(pages, zeros.data(), bytes), 0);
  pages[bytes - 1] = 1;  // all of it is writable
  if (std::filesystem::exists("/proc/self/smaps")) {
    bool advised = false;
    for (const Mapping& m : mappings())
      if (from >= m.from && from < m.to) advised = m.huge_advised && m.to >= from + bytes;
    EXPECT_TRUE(advised);
  }
  unmap_zeroed_pages(pages, bytes);
  for (const Mapping& m : mappings()) EXPECT_FALSE(from >= m.from && from < m.to) << "still mapped";
}

}  // namespace
}  // namespace sasskit
