#include "libcommon/section_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

namespace sasskit {

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point g_start = Clock::now();

std::mutex g_mutex;
SectionTotals g_totals;  // wall_s unset

// A section's wall time with `threads` threads at best: its tasks spread
// evenly over no more threads than tasks, and never less than its longest.
double bounded_section(double work_s, double longest_s, size_t tasks, unsigned threads) {
  const double spread = work_s / double(std::max<size_t>(1, std::min<size_t>(tasks, threads)));
  return std::max(spread, longest_s);
}

}  // namespace

bool section_timing_on() {
  static const bool on = [] {
    const char* v = std::getenv("SASSKIT_TIMING");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

void note_parallel_section(double wall_s, const SectionWork& work) {
  std::lock_guard lock(g_mutex);
  g_totals.sections_s += wall_s;
  g_totals.tasks_cpu_s += work.cpu_s;
  g_totals.sections += 1;
  for (size_t i = 0; i < SectionTotals::kThreads.size(); ++i)
    g_totals.bounded_sections_s[i] += bounded_section(work.cpu_s, work.longest_s, work.tasks, SectionTotals::kThreads[i]);
}

SectionTotals section_totals(double wall_s, double cpu_s) {
  std::lock_guard lock(g_mutex);
  SectionTotals t = g_totals;
  t.wall_s = wall_s;
  t.cpu_s = cpu_s;
  return t;
}

double SectionTotals::amdahl(size_t i) const {
  const double one = one_thread_s();
  if (one <= 0) return 1;
  const double serial = serial_cpu_s() / one;
  return 1 / (serial + (1 - serial) / kThreads[i]);
}

double SectionTotals::bounded(size_t i) const {
  const double at = serial_cpu_s() + bounded_sections_s[i];
  return at > 0 ? one_thread_s() / at : 1;
}

std::string section_timing_line(const std::string& tool, const SectionTotals& t) {
  const double one = t.one_thread_s();
  char line[512];
  std::snprintf(line, sizeof line,
                "%s: timing: wall %.3f s, CPU %.3f s; %zu parallel sections: wall %.3f s, their tasks' CPU %.3f s; "
                "serial: wall %.3f s, CPU %.3f s = %.2f%% of the one-thread time; Amdahl: %.1fx at %u threads, "
                "%.1fx at %u (each section at least its longest task: %.1fx, %.1fx)",
                tool.c_str(), t.wall_s, t.cpu_s, t.sections, t.sections_s, t.tasks_cpu_s, t.serial_wall_s(),
                t.serial_cpu_s(), one > 0 ? 100 * t.serial_cpu_s() / one : 0.0, t.amdahl(0),
                SectionTotals::kThreads[0], t.amdahl(1), SectionTotals::kThreads[1], t.bounded(0), t.bounded(1));
  return line;
}

double seconds_since_start() { return std::chrono::duration<double>(Clock::now() - g_start).count(); }

namespace {
double cpu_clock_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

double process_cpu_seconds() { return cpu_clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }
double thread_cpu_seconds() { return cpu_clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

}  // namespace sasskit
