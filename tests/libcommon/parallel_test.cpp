#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "libcommon/parallel.hpp"

using sasskit::parallel_for;

TEST(ParallelFor, RunsEveryTaskOnceWhateverTheThreadCount) {
  for (unsigned threads : {1u, 2u, 4u, 100u}) {
    std::vector<std::atomic<int>> runs(37);
    parallel_for(runs.size(), threads, [&](size_t i) { ++runs[i]; });
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i], 1) << "task " << i << ", " << threads << " threads";
  }
  parallel_for(0, 4, [](size_t) { FAIL() << "no task to run"; });
}

// The error a run fails with is the lowest failing task's, after every task
// has run: the same message at any thread count, however the tasks interleave.
TEST(ParallelFor, FailsWithTheLowestFailingTasksErrorAfterAllRan) {
  for (unsigned threads : {1u, 2u, 4u}) {
    std::vector<std::atomic<int>> runs(64);
    try {
      parallel_for(runs.size(), threads, [&](size_t i) {
        ++runs[i];
        if (i % 10 == 7) throw std::runtime_error("task " + std::to_string(i));
      });
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "task 7") << threads << " threads";
    }
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i], 1) << "task " << i;
  }
}

size_t threads_of_this_process() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"), {}));
}

// The threads besides the caller are kept from one call to the next, not
// started again.
TEST(ParallelFor, KeepsItsThreadsFromOneCallToTheNext) {
  if (!std::filesystem::exists("/proc/self/task")) GTEST_SKIP() << "no /proc here";
  parallel_for(8, 3, [](size_t) {});
  const size_t kept = threads_of_this_process();
  EXPECT_GE(kept, 3u);
  for (int call = 0; call < 20; ++call) parallel_for(8, 3, [](size_t) {});
  EXPECT_EQ(threads_of_this_process(), kept);
}

// A task may run a parallel_for of its own (its tasks then run on its thread).
TEST(ParallelFor, RunsNestedCallsToTheEnd) {
  std::vector<std::atomic<int>> runs(6 * 5);
  parallel_for(6, 2, [&](size_t i) { parallel_for(5, 2, [&](size_t j) { ++runs[i * 5 + j]; }); });
  for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i], 1) << "task " << i;
}
