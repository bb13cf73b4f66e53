#include "zeroed_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

#include "heap.hpp"

namespace sasskit {
namespace {

uintptr_t round_up(uintptr_t n, uintptr_t to) { return (n + to - 1) / to * to; }

size_t mapped_bytes(size_t bytes) { return round_up(bytes, static_cast<uintptr_t>(sysconf(_SC_PAGESIZE))); }

}  // namespace

// The kernel gives a huge page only to a 2 MiB-aligned range wholly inside
// the mapping: a mapping 2 MiB longer is made and trimmed to an aligned one.
void* map_zeroed_pages(size_t bytes) {
  const size_t wanted = mapped_bytes(bytes), span = wanted + kHugePage;
  void* mapped = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto from = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = round_up(from, kHugePage);
  if (aligned > from) munmap(mapped, aligned - from);
  if (const uintptr_t end = aligned + wanted; end < from + span)
    munmap(reinterpret_cast<void*>(end), from + span - end);
  madvise(reinterpret_cast<void*>(aligned), wanted, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void unmap_zeroed_pages(void* pages, size_t bytes) { munmap(pages, mapped_bytes(bytes)); }

}  // namespace sasskit
