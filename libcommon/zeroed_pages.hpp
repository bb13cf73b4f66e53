// Zeroed memory straight from the system, for tables whose keys hash all
// over them (the archive coder's trend tables): their first touches land on
// random pages, so the pages are huge ones where the system gives them on
// request, one fault per 2 MiB instead of one per 4 KiB.
#pragma once

#include <cstddef>

namespace sasskit {

// `bytes` of zeroed memory, aligned to 2 MiB and advised for transparent huge
// pages (a request the system may refuse, which costs speed only). Throws
// std::bad_alloc when the system has no room.
void* map_zeroed_pages(size_t bytes);

// Gives back what map_zeroed_pages(bytes) returned.
void unmap_zeroed_pages(void* pages, size_t bytes);

}  // namespace sasskit
