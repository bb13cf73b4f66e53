#include "libcommon/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "libcommon/heap.hpp"
#include "libcommon/section_timing.hpp"

namespace sasskit {

namespace {

// Threads kept from one call to the next. A fresh thread costs a clone and
// the faults of its stack (glibc gives a finished thread's stack pages back),
// about half a millisecond in a virtual machine of the kind bench/ measures
// on, and pipe-sim runs a parallel_for for every window of 1000 cycles: on
// an application of 320 kernels, 1,474 threads were started at -j 2.
class Workers {
 public:
  static Workers& shared() {
    static Workers workers;
    return workers;
  }

  ~Workers() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  // Runs `job` on the calling thread and on up to `helpers` kept threads,
  // each until it returns; returns once every run has. `job` must return only
  // when nothing is left to do, whoever else runs it. False without running
  // anything if the workers are busy (a call from a task, or from another
  // thread at the same time): the caller then runs its tasks alone. Helpers
  // the system cannot start (a limit on threads or on the address space)
  // are done without: the job's results do not depend on how many run it.
  bool run(size_t helpers, const std::function<void()>& job) {
    {
      std::lock_guard lock(mutex_);
      if (job_) return false;
      start_threads(helpers);
      job_ = &job;
      wanted_ = std::min(helpers, threads_.size());
    }
    wake_.notify_all();
    job();
    std::unique_lock lock(mutex_);
    wanted_ = 0;  // the job is done: a helper that has not woken yet need not join
    done_.wait(lock, [&] { return running_ == 0; });
    job_ = nullptr;
    return true;
  }

 private:
  Workers() = default;

  // Up to `count` kept threads, as many as the system gives.
  void start_threads(size_t count) {
    try {
      threads_.reserve(count);
      while (threads_.size() < count) threads_.emplace_back([this] { serve(); });
    } catch (const std::system_error&) {
      // no more threads: those started help
    } catch (const std::bad_alloc&) {
      // likewise
    }
  }

  void serve() {
    tune_thread_heap();
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || wanted_ > 0; });
      if (stop_) return;
      --wanted_;
      ++running_;
      const std::function<void()>& job = *job_;
      lock.unlock();
      job();
      lock.lock();
      if (--running_ == 0) done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void()>* job_ = nullptr;  // the run in progress
  size_t wanted_ = 0;   // helpers still to join it
  size_t running_ = 0;  // helpers running it
  bool stop_ = false;
};

// The CPU time of a timed section's threads, each over its whole share of
// the tasks. A read of a thread's CPU clock is a system call (about 0.5 us
// in the virtual machines bench/ measures on): the reads around each task
// (for the longest, SectionWork) then fall inside its thread's share and
// count as the section's work, where summed per task they fell partly
// outside it and were counted as serial (pipe-sim counts each of 65,536
// CTAs in a task of its own: 60 ms of 4.4 s).
class SectionCpu {
 public:
  // Adds the calling thread's CPU time over its lifetime.
  class OnThread {
   public:
    explicit OnThread(SectionCpu* section) : section_(section), from_(section ? thread_cpu_seconds() : 0) {}
    ~OnThread() {
      if (section_) section_->add(thread_cpu_seconds() - from_);
    }
    OnThread(const OnThread&) = delete;
    OnThread& operator=(const OnThread&) = delete;

   private:
    SectionCpu* section_;
    double from_;
  };
  double seconds() const { return seconds_; }

 private:
  void add(double s) {
    std::lock_guard lock(mutex_);
    seconds_ += s;
  }
  std::mutex mutex_;
  double seconds_ = 0;
};

// Calls task(i) for i in [0, n) on the calling thread and `helpers` kept
// threads; rethrows the first failure (lowest i) after all have stopped.
// With `cpu`, adds each thread's CPU time to it.
void run_tasks_untimed(size_t n, size_t helpers, const std::function<void(size_t)>& task, SectionCpu* cpu = nullptr) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  const std::function<void()> worker = [&] {
    const SectionCpu::OnThread timed(cpu);
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  if (helpers == 0 || !Workers::shared().run(helpers, worker)) worker();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Marks the calling thread as running a parallel section, for a scope.
class InSection {
 public:
  InSection() : outer_(std::exchange(flag(), true)) {}
  ~InSection() { flag() = outer_; }
  InSection(const InSection&) = delete;
  InSection& operator=(const InSection&) = delete;
  static bool& flag() {
    thread_local bool in = false;
    return in;
  }

 private:
  bool outer_;
};

// Runs the tasks, and with SASSKIT_TIMING notes the section's wall time, its
// threads' CPU time and its longest task's CPU time (a call from within a
// task is part of its caller's section; a call with no task is none).
void run_tasks(size_t n, size_t helpers, const std::function<void(size_t)>& task) {
  if (!section_timing_on() || n == 0 || InSection::flag()) {
    run_tasks_untimed(n, helpers, task);
    return;
  }
  std::vector<double> task_cpu_s(n);
  SectionCpu cpu;
  const double start = seconds_since_start();
  {
    const InSection section;
    run_tasks_untimed(
        n, helpers,
        [&](size_t i) {
          const InSection on_this_thread;
          const double from = thread_cpu_seconds();
          task(i);
          task_cpu_s[i] = thread_cpu_seconds() - from;
        },
        &cpu);
  }
  note_parallel_section(seconds_since_start() - start,
                        {.cpu_s = cpu.seconds(), .longest_s = *std::ranges::max_element(task_cpu_s), .tasks = n});
}

}  // namespace

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& task) {
  const size_t helpers = std::min<size_t>(std::max(1u, threads), n) - (n > 0);
  run_tasks(n, helpers, task);
}

}  // namespace sasskit
