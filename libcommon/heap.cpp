#include "heap.hpp"

#include <cstdint>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <span>

extern char end;  // the end of the program's data, where the main heap starts (end(3))
#endif

namespace sasskit {

#if defined(__GLIBC__) && !defined(SASSKIT_OWN_HEAP)
namespace {

// MADV_COLLAPSE, which Debian 12's C library headers do not name yet.
#ifdef MADV_COLLAPSE
constexpr int kCollapse = MADV_COLLAPSE;
#else
constexpr int kCollapse = 25;  // include/uapi/asm-generic/mman-common.h
#endif

// The tools free and allocate buffers of megabytes all the time (a kernel's
// tables, a chunk's accesses, an SM's state). By default glibc gives the
// heap's free top back to the system at 128 KiB and maps larger blocks of
// their own, so the next kernel's buffers fault their pages in again: page
// faults were a quarter to a third of rd-cache's and trace-unpack's time on
// an application of 320 kernels. Freed memory up to these sizes is kept for
// reuse instead.
void keep_freed_memory_for_reuse() {
  mallopt(M_TRIM_THRESHOLD, int(kHugePageHeap));
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
}

// A huge page of an advised range that had a small page before the advice
// stays in small pages (the kernel does not replace them on fault). A
// synchronous collapse (Linux 6.1 on) makes it one huge page at once, when
// it lies wholly in [from, to); where the system refuses, it stays small.
void collapse_page_at(uintptr_t address, uintptr_t from, uintptr_t to) {
  const uintptr_t page = address & ~(kHugePage - 1);
  if (page >= from && page + kHugePage <= to) madvise(reinterpret_cast<void*>(page), kHugePage, kCollapse);
}

// Never freed: see occupy_below.
void* g_plug = nullptr;

// glibc carves new blocks from the heap's free top upwards, which starts at
// `top`, below the first huge-page boundary `from`; the part before it can
// only have small pages (its first 2 MiB straddle the heap's start or pages
// touched already), and a tool's first 0 to 2 MiB of blocks took a fault per
// 4 KiB there: 0 to 500 faults, which made pipe-sim's page faults on one input
// vary from 400 to 870 from run to run. A block that is never freed fills that
// part, so that blocks start at `from`; only its first page is ever touched.
// If glibc places it elsewhere (a free block of that size), it is given back.
void occupy_below(uintptr_t top, uintptr_t from) {
  constexpr size_t kHeader = sizeof(size_t);  // glibc's size field before a block
  if (from <= top + 4 * kHeader) return;
  g_plug = std::malloc(from - top - kHeader);
  if (reinterpret_cast<uintptr_t>(g_plug) != top) {
    std::free(g_plug);
    g_plug = nullptr;
  }
}

// A first touch of a 4 KiB page costs about 10 µs in a virtual machine of the
// kind bench/ measures on, and pipe-sim touched 3,000 to 5,000 fresh pages on a
// corpus kernel (decoded CTAs, SM state): a quarter of its time. A huge page
// (2 MiB) takes one fault. Where transparent huge pages are given on request
// (the "madvise" mode, as on the machines bench/ measures on), glibc asks for
// them only when told through GLIBC_TUNABLES, which a program cannot set for
// itself. So the heap is grown once now, with kHugePageHeap of padding that
// glibc keeps on its top (M_TOP_PAD), that range is advised, and the block is
// freed again. Nothing in it is touched, so resident memory does not change
// until it is used. The heap's growth beyond it is not advised (the kernel
// gives a grown heap the flags of a fresh mapping).
void back_heap_with_huge_pages() {
  mallopt(M_TOP_PAD, int(kHugePageHeap));
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  // A page more than the heap's free top holds, so that the heap grows, and
  // no more: splitting `grows` off the top writes the header of what is left
  // just past its end, before the advice, and the nearer that lies to the
  // old end the less often it falls in the advised range (below).
  const size_t request = mallinfo2().keepcost + 4096;
  void* volatile grows = std::malloc(request);
  const auto after = reinterpret_cast<uintptr_t>(sbrk(0));
  const auto top = reinterpret_cast<uintptr_t>(grows);
  const uintptr_t from = (before + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t to = after & ~(kHugePage - 1);
  const bool advised = after > before && to > from;
  if (advised) {
    madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
    // Splitting `grows` off the heap's top wrote the header of what was left
    // just past its end (within 16 bytes), before the advice. Where that lies
    // in the advised range (the heap ended less than a page below a huge-page
    // boundary), its huge page would stay in small pages: pipe-sim took 475
    // faults more in such runs (with a request 1 MiB over the top, half of
    // them). The collapse costs 0.3 ms, so it is done only then.
    const uintptr_t header = top + request;
    collapse_page_at(header - 16, from, to);
    if (((header - 16) ^ (header + 16)) >= kHugePage) collapse_page_at(header + 16, from, to);
  }
  std::free(grows);
  if (advised) occupy_below(top, from);
}

// glibc's heap for a thread's arena is a mapping of 64 MiB (HEAP_MAX_SIZE:
// twice its largest mmap threshold) aligned to its size, so that glibc finds
// a block's heap by masking its address (heap_for_ptr, malloc/arena.c). Were
// that ever to change, the advice would reach other mappings, which costs
// memory at worst: it never changes what a program computes.
constexpr uintptr_t kThreadHeapBytes = uintptr_t(64) << 20;

// The heaps advised so far, so that each is advised once. Nothing here has
// a destructor: a kept thread may begin running only once the process is
// exiting and its static objects are destroyed (a vector here was, and that
// thread's push_back freed its buffer a second time). Past kMostAdvised
// heaps, a heap is advised again each time: the advice is the same.
constexpr size_t kMostAdvised = 64;
std::mutex g_advised_mutex;
std::array<uintptr_t, kMostAdvised> g_advised;
size_t g_advised_count = 0;

void advise_heap_of(uintptr_t block) {
  const uintptr_t main_from = reinterpret_cast<uintptr_t>(&end), main_to = reinterpret_cast<uintptr_t>(sbrk(0));
  if (block >= main_from && block < main_to) return;  // the main heap: advised by tune_heap
  const uintptr_t heap = block & ~(kThreadHeapBytes - 1);
  {
    std::lock_guard lock(g_advised_mutex);
    const auto advised = std::span(g_advised).first(g_advised_count);
    if (std::ranges::find(advised, heap) != advised.end()) return;
    if (g_advised_count < kMostAdvised) g_advised[g_advised_count++] = heap;
  }
  madvise(reinterpret_cast<void*>(heap), kThreadHeapBytes, MADV_HUGEPAGE);
  // The heap's first 2 MiB (the arena's own record, then its first blocks)
  // were touched before the advice, so the kernel keeps them in small pages:
  // pipe-sim's helper took 300 faults there, about 3 ms, on a corpus kernel.
  collapse_page_at(heap, heap, heap + kThreadHeapBytes);
}

// Under a limit on the address space (ulimit -v), the padding would make
// every growth of the heap ask for kHugePageHeap more than it needs, and a
// limit below it would fail the tool's first allocations: the heap then
// grows as glibc grows it, which costs speed only.
bool address_space_limited() {
  rlimit limit{};
  return getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

void tune_main_heap() {
  keep_freed_memory_for_reuse();
  if (!address_space_limited()) back_heap_with_huge_pages();
}

}  // namespace

void tune_thread_heap() {
  void* volatile block = std::malloc(1);
  advise_heap_of(reinterpret_cast<uintptr_t>(block));
  std::free(block);
}

void tune_heap() {
  static const bool once = (tune_main_heap(), true);
  (void)once;
}
#else
void tune_heap() {}
void tune_thread_heap() {}
#endif

}  // namespace sasskit
