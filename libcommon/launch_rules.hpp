// The one launch model of every stage: which kernels may run together, when
// a kernel may launch and its CTAs start, and whether a CTA fits an SM
// beside what is resident there. cta-sample and rd-cache ask it through
// placement.hpp (the CTA scheduler, with predicted CTA ends), pipe-sim's
// launch queue with simulated ones; a launch rule is added here, once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "libcommon/gpu_config.hpp"
#include "libcommon/sm_load.hpp"

namespace sasskit {

// How the kernels of different streams share the GPU. By default as the
// silicon (and Accel-Sim with -gpgpu_concurrent_kernel_sm 1) does: CTAs of
// kernels of different streams share an SM up to `sm_capacity`, each kernel
// also within its own occupancy. With `serial_kernels`, as Accel-Sim does by
// default: one kernel at a time on the whole GPU, whatever its stream, each
// launching `launch_latency` after the previous one has ended.
struct SharingOptions {
  uint64_t launch_latency = 0;  // from a kernel's end to the next kernel of its stream
  // CTA launch: the first CTA waits `kernel_fixed_cycles` after the launch,
  // each CTA holds its slot `cta_launch_latency` cycles before it runs, and
  // the GPU dispatches at most `cta_dispatch_rate` CTAs per cycle (0: no
  // limit), in launch order.
  uint64_t kernel_fixed_cycles = 0;
  uint64_t cta_launch_latency = 0;
  double cta_dispatch_rate = 0;
  unsigned max_concurrent_kernels = 0;  // running at once; 0: no limit
  bool serial_kernels = false;
  SmLoad sm_capacity;  // what the CTAs resident on one SM may hold together
};

// The GPU model's sharing: its kernel launch latency, concurrent-kernel
// limit and SM resources. Every stage places with it, so a sampled stream's
// sched record agrees with pipe-sim's plan.
SharingOptions gpu_sharing(const GpuConfig& gpu, bool serial_kernels);

class LaunchRules {
 public:
  explicit LaunchRules(const SharingOptions& sharing = {}) : s_(sharing) {}
  const SharingOptions& sharing() const { return s_; }

  // Kernels. The stream whose previous kernel a launch waits for: its own,
  // or with serial_kernels the one stream every kernel is taken to be on
  // (asked again of its answer, it gives the same).
  uint64_t stream_of(uint64_t stream_id) const { return s_.serial_kernels ? 0 : stream_id; }
  // Whether kernels of these streams may run on the GPU at once, and so
  // share SMs: kernels of one launch stream run one after another.
  bool may_run_together(uint64_t stream_a, uint64_t stream_b) const {
    return stream_of(stream_a) != stream_of(stream_b);
  }
  // When a kernel launches: not before `not_before` (the kernel launched
  // before it, or a batch boundary), launch_latency after `stream_end` (the
  // end of the previous kernel of its launch stream; 0 for a stream's
  // first), and only while fewer than max_concurrent_kernels run. The
  // kernels launched before are `ends`, those whose end is known (in any
  // order), and `pending` more still running with their end not known yet;
  // nullopt while the answer depends on one of those.
  std::optional<uint64_t> launch_at(uint64_t not_before, uint64_t stream_end, std::vector<uint64_t> ends,
                                    size_t pending) const;

  // CTAs. The cycle before which the GPU's CTA dispatcher cannot send CTA
  // number `cta` (launch order) of a kernel launched at `launch`: its fixed
  // start cost, then cta_dispatch_rate CTAs per cycle.
  uint64_t dispatch_at(uint64_t launch, uint64_t cta) const;
  // How long a CTA of `predicted` cycles (at least one) holds its slot: its
  // launch latency included.
  uint64_t slot_cycles(uint64_t predicted) const {
    return std::max<uint64_t>(1, predicted) + s_.cta_launch_latency;
  }
  // When a CTA that takes its slot at `slot` runs: from the end of its
  // launch latency (pipe-sim's SMs start a CTA that long after its slot is
  // free) to the end of its slot_cycles.
  struct CtaRun {
    uint64_t begin = 0, end = 0;
  };
  CtaRun run_of(uint64_t slot, uint64_t predicted) const {
    return {slot + s_.cta_launch_latency, slot + slot_cycles(predicted)};
  }

  // SM room: whether `need` (a CTA, or a kernel's CTAs on the SM) fits
  // beside what the SM holds, `held`.
  bool fits(const SmLoad& held, const SmLoad& need) const {
    SmLoad with = held;
    with += need;
    return within(with, s_.sm_capacity);
  }

 private:
  SharingOptions s_;
};

// When an SM has room: the first cycle from `from` on at which `fits(held)`
// holds, as what is resident there leaves. `[next, last)` are the resident
// CTAs (or segments) whose end is known, in order of end, each a pair of its
// end and what it holds; `leave(held, resident)` takes one out of `held`,
// and all those that end together leave at once. `held` is left as it is at
// the answer. nullopt when it does not fit once the last has left (what
// stays has no known end).
template <class Held, class It, class Fits, class Leave>
std::optional<uint64_t> first_room(uint64_t from, Held& held, It next, It last, Fits&& fits, Leave&& leave) {
  uint64_t at = from;
  while (!fits(held)) {
    if (next == last) return std::nullopt;
    for (at = next->first; next != last && next->first == at; ++next) leave(held, *next);
  }
  return at;
}

}  // namespace sasskit
