// How much of a run's wall time is spent outside its parallel sections (the
// parallel_for calls), for the serial part that bench/speed reports and the
// speed-up Amdahl's law then gives. Measured only where the environment sets
// SASSKIT_TIMING (to anything but empty or 0); the tool then prints one line
// on stderr as it ends. Nothing a tool computes depends on it.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace sasskit {

// Whether SASSKIT_TIMING asks for the split (read once).
bool section_timing_on();

// What one section's tasks took (seconds): the CPU time of the threads that
// ran them, over their whole share; the longest task's CPU time; how many.
struct SectionWork {
  double cpu_s = 0, longest_s = 0;
  size_t tasks = 0;
};
// One section's figures: its wall time and its tasks' work.
void note_parallel_section(double wall_s, const SectionWork& work);

// What the sections noted so far add up to, in a run of `wall_s` seconds of
// wall time and `cpu_s` of the process's CPU time. The serial part counted in
// CPU time holds on a loaded machine, where wall time waits for the CPU.
struct SectionTotals {
  double wall_s = 0, cpu_s = 0;  // the run's
  double sections_s = 0;         // wall time inside sections
  double tasks_cpu_s = 0;        // the tasks' CPU time, summed
  size_t sections = 0;
  double serial_wall_s() const { return wall_s > sections_s ? wall_s - sections_s : 0; }
  // The CPU time outside the tasks: the run's one-thread time but for the
  // sections' work (their threads' wake-ups count as serial).
  double serial_cpu_s() const { return cpu_s > tasks_cpu_s ? cpu_s - tasks_cpu_s : 0; }
  double one_thread_s() const { return serial_cpu_s() + tasks_cpu_s; }
  // The thread counts the speed-up is given at.
  static constexpr std::array<unsigned, 2> kThreads = {16, 64};
  // Per kThreads: the sections' time where each spreads its tasks evenly
  // over no more threads than tasks, and waits for its longest.
  std::array<double, kThreads.size()> bounded_sections_s{};
  // Amdahl's law at kThreads[i], from the serial CPU share of the one-thread time.
  double amdahl(size_t i) const;
  // The speed-up at kThreads[i] with the sections so bounded.
  double bounded(size_t i) const;
};
SectionTotals section_totals(double wall_s, double cpu_s);

// "TOOL: timing: ..." with the totals, the serial share and the speed-ups.
std::string section_timing_line(const std::string& tool, const SectionTotals& t);

// Seconds since the process started (a steady clock read as it starts).
double seconds_since_start();
// The process's CPU time so far, all threads, user and system (seconds).
double process_cpu_seconds();
// The calling thread's CPU time so far (seconds).
double thread_cpu_seconds();

}  // namespace sasskit
