// Runs independent tasks on N threads. Each task writes only its own result
// slot, so no locks are needed while they run and the merged output does not
// depend on N (parallel-accelsim-2025 §3); nor does the error a run fails
// with, which is the failing task's of the lowest index.
#pragma once

#include <cstddef>
#include <functional>

namespace sasskit {

// Calls task(i) for i in [0, n) on up to `threads` threads; rethrows the
// first failure (lowest i) after all have stopped.
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& task);

}  // namespace sasskit
