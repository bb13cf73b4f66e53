#include <gtest/gtest.h>

#include <atomic>
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
