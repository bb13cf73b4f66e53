// How every tool's heap is set up before it reads anything (ToolApp does it
// once, first thing). Only the cost of memory changes, never what a tool
// computes or the most it holds.
#pragma once

#include <cstddef>
#include <cstdlib>  // defines __GLIBC__ under glibc

// AddressSanitizer replaces malloc: the heap is then its own, not glibc's.
#if defined(__SANITIZE_ADDRESS__)
#define SASSKIT_OWN_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SASSKIT_OWN_HEAP 1
#endif
#endif

namespace sasskit {

// Whether tune_heap does anything in this build: glibc's heap only.
#if defined(__GLIBC__) && !defined(SASSKIT_OWN_HEAP)
inline constexpr bool kTunesHeap = true;
#else
inline constexpr bool kTunesHeap = false;
#endif

// A transparent huge page on x86-64: the kernel gives one to a range of this
// size aligned to it, with one fault where 4 KiB pages take 512.
inline constexpr size_t kHugePage = size_t(2) << 20;

// How much of the heap is backed by huge pages from the start.
inline constexpr size_t kHugePageHeap = size_t(64) << 20;

// Keeps freed memory for reuse, and asks the system to back the first
// kHugePageHeap bytes the heap grows by with transparent huge pages (not
// under a limit on the address space, ulimit -v). Does nothing unless
// kTunesHeap; either request may be refused, which costs speed only.
void tune_heap();

// The same request for the heap of the calling thread's malloc arena: glibc
// gives threads heaps of their own, apart from the main one. For a worker
// thread to call as it starts (the first call for a heap asks, later ones
// only look). Does nothing on the main heap, or unless kTunesHeap.
void tune_thread_heap();

}  // namespace sasskit
