#include "libcommon/cta_schedule.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "libcommon/diag.hpp"

namespace sasskit {
namespace {

// An SM's capacity in share units: lcm(1..32), so 1/c of an SM is exact for
// every c up to 32 resident CTAs; larger c round down, which still fits c.
constexpr uint64_t kCapacity = 144403552893600ULL;

struct SmState {
  std::multiset<uint64_t> live;   // ends of placed CTAs not known to be over
  uint64_t work = 0;              // predicted cycles assigned in this kernel
  uint64_t kernel_end = 0;        // when the CTAs placed so far have all ended
  uint64_t drained = 0;           // when earlier kernels' CTAs have ended

  // The earliest cycle >= floor at which a CTA of `share` fits.
  // `floor` never decreases within a kernel, so ends up to it can be dropped.
  uint64_t earliest_start(uint64_t floor, uint64_t share) {
    floor = std::max(floor, drained);
    live.erase(live.begin(), live.upper_bound(floor));
    if ((live.size() + 1) * share <= kCapacity) return floor;
    return *live.begin();  // full: the first CTA to end frees the slot
  }

  void place(uint64_t start, uint64_t duration) {
    live.insert(start + duration);
    work += duration;
    kernel_end = std::max(kernel_end, start + duration);
  }

  // Called at a kernel launch: the SM is the new kernel's once what earlier
  // kernels placed on it has ended.
  void begin_kernel() {
    drained = kernel_end;
    live.clear();
    work = 0;
  }
};

}  // namespace

const char* policy_name(SchedPolicyKind policy) {
  switch (policy) {
    case SchedPolicyKind::RoundRobin: return "round-robin";
    case SchedPolicyKind::Greedy: return "greedy";
    case SchedPolicyKind::Wave: return "wave";
  }
  return "?";
}

SchedPolicyKind parse_policy(const std::string& name) {
  for (auto p : {SchedPolicyKind::RoundRobin, SchedPolicyKind::Greedy, SchedPolicyKind::Wave})
    if (name == policy_name(p)) return p;
  fail_usage("unknown scheduling policy '" + name + "' (round-robin, greedy or wave)");
}

struct CtaScheduler::State {
  SharingOptions sharing;
  std::vector<SmState> sms;
  unsigned last_sm;  // round-robin cursor
  uint64_t last_launch = 0;
  std::map<uint64_t, uint64_t> stream_end;
  std::multiset<uint64_t> kernel_ends;  // of the kernels scheduled so far

  State(unsigned n, const SharingOptions& s) : sharing(s), sms(n), last_sm(n - 1) {}

  uint64_t launch_slot(uint64_t ready) {
    kernel_ends.erase(kernel_ends.begin(), kernel_ends.upper_bound(ready));  // keep only those that matter
    return *concurrent_kernel_slot(ready, sharing.max_concurrent_kernels, {kernel_ends.begin(), kernel_ends.end()}, 0);
  }

  unsigned pick_sm(SchedPolicyKind policy, uint64_t floor, uint64_t share,
                   uint64_t& start) {
    const unsigned n = static_cast<unsigned>(sms.size());
    unsigned best = n;
    for (unsigned k = 0; k < n; ++k) {
      unsigned sm = policy == SchedPolicyKind::RoundRobin ? (last_sm + 1 + k) % n : k;
      uint64_t t = sms[sm].earliest_start(floor, share);
      bool better = best == n || t < start ||
                    (t == start && policy == SchedPolicyKind::Greedy && sms[sm].work < sms[best].work);
      if (better) {
        best = sm;
        start = t;
      }
    }
    return best;
  }
};

CtaScheduler::CtaScheduler(unsigned num_sms, const SharingOptions& sharing) {
  if (num_sms == 0) fail("the GPU model has no SMs");
  state_ = std::make_unique<State>(num_sms, sharing);
}

CtaScheduler::~CtaScheduler() = default;

KernelSchedule CtaScheduler::schedule(const KernelLaunch& k, SchedPolicyKind policy) {
  if (k.ctas_per_sm == 0)  // resident_ctas() refuses such a kernel first
    throw Error(ExitCode::Internal, "kernel " + std::to_string(k.kernel_id), "scheduled with no resident CTA per SM");
  if (!k.cta_cycles.empty() && k.cta_cycles.size() != k.num_ctas)
    fail("kernel " + std::to_string(k.kernel_id) + ": " + std::to_string(k.cta_cycles.size()) +
         " CTA durations for " + std::to_string(k.num_ctas) + " CTAs");
  State& s = *state_;
  auto stream = s.stream_end.find(k.stream_id);
  uint64_t launch = s.launch_slot(std::max(
      s.last_launch, (stream == s.stream_end.end() ? 0 : stream->second) + s.sharing.launch_latency));
  for (auto& sm : s.sms) sm.begin_kernel();
  s.last_sm = static_cast<unsigned>(s.sms.size() - 1);

  const uint64_t share = kCapacity / k.ctas_per_sm;
  const unsigned n_sms = static_cast<unsigned>(s.sms.size());
  const uint64_t wave_size = uint64_t(n_sms) * k.ctas_per_sm;
  KernelSchedule out;
  out.kernel_id = k.kernel_id;
  out.policy = policy_name(policy);
  out.launch = launch;
  out.sm.resize(k.num_ctas);
  out.start.resize(k.num_ctas);
  uint64_t floor = launch, end = launch, wave_end = launch;
  for (uint32_t i = 0; i < k.num_ctas; ++i) {
    const uint64_t duration = k.cta_cycles.empty() ? 1 : std::max<uint64_t>(1, k.cta_cycles[i]);
    uint64_t start = 0;
    unsigned sm;
    if (policy == SchedPolicyKind::Wave) {
      if (i % wave_size == 0) floor = wave_end;
      sm = i % n_sms;
      start = s.sms[sm].earliest_start(floor, share);
    } else {
      sm = s.pick_sm(policy, floor, share, start);
      floor = start;
    }
    s.sms[sm].place(start, duration);
    s.last_sm = sm;
    wave_end = std::max(wave_end, start + duration);
    end = std::max(end, start + duration);
    out.sm[i] = sm;
    out.start[i] = start - launch;
  }
  s.last_launch = launch;
  s.stream_end[k.stream_id] = std::max(end, stream == s.stream_end.end() ? 0 : stream->second);
  s.kernel_ends.insert(end);
  return out;
}

SharingOptions accelsim_sharing(const GpuConfig& gpu) {
  return SharingOptions{.launch_latency = gpu.kernel_launch_latency,
                        .max_concurrent_kernels = gpu.max_concurrent_kernels};
}

std::optional<uint64_t> concurrent_kernel_slot(uint64_t ready, unsigned limit, std::vector<uint64_t> ends,
                                               size_t pending) {
  std::erase_if(ends, [&](uint64_t end) { return end <= ready; });
  const size_t running = ends.size() + pending;
  if (limit == 0 || running < limit) return ready;
  const size_t need = running - limit + 1;  // kernels that must end first
  if (ends.size() < need) return std::nullopt;
  std::nth_element(ends.begin(), ends.begin() + std::ptrdiff_t(need - 1), ends.end());
  return ends[need - 1];
}

KernelSchedule model_schedule(const GpuConfig& gpu, uint32_t kernel_id, uint32_t num_ctas,
                              unsigned ctas_per_sm, SchedPolicyKind policy,
                              const std::vector<uint64_t>& cta_cycles) {
  CtaScheduler scheduler(gpu.num_sms);
  return scheduler.schedule(KernelLaunch{kernel_id, 0, num_ctas, ctas_per_sm, cta_cycles}, policy);
}

}  // namespace sasskit
