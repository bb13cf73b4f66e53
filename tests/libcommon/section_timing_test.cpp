#include <gtest/gtest.h>

#include <vector>

#include "libcommon/section_timing.hpp"

using sasskit::SectionTotals;

// A run of 10 s wall and 18 s CPU whose sections took 8 s of wall time and
// 16 s of their tasks' CPU: 2 s serial of an 18 s one-thread time.
SectionTotals example() {
  SectionTotals t;
  t.wall_s = 10;
  t.cpu_s = 18;
  t.sections_s = 8;
  t.tasks_cpu_s = 16;
  return t;
}

TEST(SectionTiming, AmdahlFromTheSerialShareOfTheOneThreadTime) {
  SectionTotals t = example();
  EXPECT_DOUBLE_EQ(t.serial_wall_s(), 2);
  EXPECT_DOUBLE_EQ(t.serial_cpu_s(), 2);
  EXPECT_DOUBLE_EQ(t.one_thread_s(), 18);
  EXPECT_EQ(SectionTotals::kThreads[0], 16u);
  EXPECT_NEAR(t.amdahl(0), 18 / (2 + 16.0 / 16), 1e-12);  // 6x
  EXPECT_NEAR(t.amdahl(1), 18 / (2 + 16.0 / 64), 1e-12);  // 8x
  t.bounded_sections_s = {4, 4};  // a long task: no gain past 4 threads
  EXPECT_NEAR(t.bounded(0), 18.0 / 6, 1e-12);
  EXPECT_NEAR(t.bounded(1), 18.0 / 6, 1e-12);
}

// On a loaded machine the wall time waits for the CPU: the serial CPU time
// does not.
TEST(SectionTiming, SerialCpuTimeIgnoresWaitingForTheCpu) {
  SectionTotals t = example();
  t.wall_s = 40;  // the same work, four times as long by the clock
  EXPECT_DOUBLE_EQ(t.serial_wall_s(), 32);
  EXPECT_DOUBLE_EQ(t.serial_cpu_s(), 2);
  EXPECT_NEAR(t.amdahl(0), 6, 1e-12);
}

TEST(SectionTiming, SerialIsNeverNegative) {
  SectionTotals t;
  t.wall_s = 1;
  t.sections_s = 1.5;  // clocks read at different moments
  t.cpu_s = 1;
  t.tasks_cpu_s = 1.5;
  EXPECT_EQ(t.serial_wall_s(), 0);
  EXPECT_EQ(t.serial_cpu_s(), 0);
  EXPECT_DOUBLE_EQ(t.amdahl(0), 16);
  EXPECT_EQ(SectionTotals{}.amdahl(0), 1);  // nothing measured
}

// A section adds its wall time, its tasks' work, and its bound: the work
// spread over no more threads than tasks, and never less than the longest.
TEST(SectionTiming, ASectionAddsItsTimesAndItsBound) {
  const SectionTotals before = sasskit::section_totals(0, 0);
  sasskit::note_parallel_section(3.5, {.cpu_s = 6, .longest_s = 3, .tasks = 4});
  sasskit::note_parallel_section(8, {.cpu_s = 16, .longest_s = 0.5, .tasks = 32});
  const SectionTotals after = sasskit::section_totals(20, 30);
  EXPECT_EQ(after.sections - before.sections, 2u);
  EXPECT_DOUBLE_EQ(after.sections_s - before.sections_s, 11.5);
  EXPECT_DOUBLE_EQ(after.tasks_cpu_s - before.tasks_cpu_s, 22);
  EXPECT_DOUBLE_EQ(after.bounded_sections_s[0] - before.bounded_sections_s[0], 3 + 1);    // 16 threads
  EXPECT_DOUBLE_EQ(after.bounded_sections_s[1] - before.bounded_sections_s[1], 3 + 0.5);  // 64: 32 tasks
  EXPECT_EQ(after.wall_s, 20);
  EXPECT_EQ(after.cpu_s, 30);
}

TEST(SectionTiming, TheLineNamesTheToolAndEveryFigure) {
  SectionTotals t = example();
  t.sections = 3;
  t.bounded_sections_s = {1, 0.25};
  EXPECT_EQ(sasskit::section_timing_line("rd-cache", t),
            "rd-cache: timing: wall 10.000 s, CPU 18.000 s; 3 parallel sections: wall 8.000 s, their tasks' CPU "
            "16.000 s; serial: wall 2.000 s, CPU 2.000 s = 11.11% of the one-thread time; Amdahl: 6.0x at 16 "
            "threads, 8.0x at 64 (each section at least its longest task: 6.0x, 8.0x)");
}

TEST(SectionTiming, ClocksAdvance) {
  const double wall = sasskit::seconds_since_start(), cpu = sasskit::process_cpu_seconds();
  const double thread = sasskit::thread_cpu_seconds();
  volatile double x = 0;
  for (int i = 0; i < 2000000; ++i) x = x + 1;
  EXPECT_GT(sasskit::seconds_since_start(), wall);
  EXPECT_GT(sasskit::process_cpu_seconds(), cpu);
  EXPECT_GT(sasskit::thread_cpu_seconds(), thread);
}
