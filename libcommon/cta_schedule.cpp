#include "libcommon/cta_schedule.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "libcommon/diag.hpp"

namespace sasskit {
namespace {

// A CTA of the kernel being placed, as an SM must hold it.
struct CtaNeed {
  uint32_t kernel = 0;  // in launch order
  unsigned ctas_per_sm = 0;
  SmLoad load;
  const LaunchRules* rules = nullptr;
};

// An SM's first free slot for a CTA: when, and how many CTAs are resident
// there then, of other kernels and in all.
struct Slot {
  uint64_t start = 0;
  size_t others = 0;
  size_t resident = 0;
};

struct SmState {
  struct Held {
    uint32_t kernel = 0;
    SmLoad load;
  };
  // Placed CTAs not known to be over, by end (a few per SM: a sorted vector,
  // where a tree node per CTA cost more than the rest of its placement).
  std::vector<std::pair<uint64_t, Held>> live;
  SmLoad used;                         // what `live` holds
  size_t own = 0;                      // of `live`, CTAs of the kernel being placed
  uint64_t work = 0;                   // predicted cycles assigned in this kernel
  Slot slot;                           // earliest_start's at known_floor, if known
  uint64_t known_floor = 0;
  bool known = false;

  // The earliest cycle >= floor at which a CTA of `need` fits beside the
  // CTAs resident then. `floor` never decreases within a kernel, so ends up
  // to it can be dropped. Kept until the floor moves or a CTA is placed
  // here: the scheduler asks every SM at every CTA, mostly at one floor.
  Slot earliest_start(uint64_t floor, const CtaNeed& need) {
    if (!known || known_floor != floor) {
      slot = first_fit(floor, need);
      known_floor = floor;
      known = true;
    }
    return slot;
  }

  void place(uint64_t start, uint64_t duration, const CtaNeed& need) {
    const uint64_t end = start + duration;
    const auto after = std::upper_bound(live.begin(), live.end(), end,
                                        [](uint64_t e, const std::pair<uint64_t, Held>& p) { return e < p.first; });
    live.insert(after, {end, Held{need.kernel, need.load}});
    used += need.load;
    ++own;
    work += duration;
    known = false;
  }

  bool empty() const { return live.empty(); }

  // Called at a kernel launch: the CTAs still resident are other kernels'.
  void begin_kernel() {
    own = 0;
    work = 0;
    known = false;
  }

 private:
  Slot first_fit(uint64_t floor, const CtaNeed& need) {
    release_ended_by(floor, need.kernel);
    struct Tally {  // of the CTAs resident at the answer
      SmLoad load;
      size_t own = 0, resident = 0;
    } held{used, own, live.size()};
    const std::optional<uint64_t> t = first_room(
        floor, held, live.begin(), live.end(),
        [&](const Tally& h) { return h.own < need.ctas_per_sm && need.rules->fits(h.load, need.load); },
        [&](Tally& h, const std::pair<uint64_t, Held>& ending) {
          h.load -= ending.second.load;
          h.own -= ending.second.kernel == need.kernel;
          --h.resident;
        });
    if (!t)  // resident_ctas() refuses a CTA an empty SM cannot hold
      throw Error(ExitCode::Internal, "kernel placement", "a CTA does not fit an empty SM");
    return Slot{*t, held.resident - held.own, held.resident};
  }

  void release_ended_by(uint64_t floor, uint32_t kernel) {
    auto ended = live.begin();
    for (; ended != live.end() && ended->first <= floor; ++ended) {
      used -= ended->second.load;
      own -= ended->second.kernel == kernel;
    }
    live.erase(live.begin(), ended);
  }
};

// Round-robin placement for a kernel that has the SMs to itself. An SM's
// earliest slot at a floor is the later of the floor and the first cycle
// it fits a CTA at all, which only a CTA placed there changes; so the SMs
// wait in order of that cycle, and those whose slot is the floor are a set
// of bits, in which the next SM after the last one used is found at once,
// instead of asking every SM at every CTA. Ties and slots are those of
// State::pick_sm, whose every CTA asks each SM afresh.
class RoundRobinPicker {
 public:
  RoundRobinPicker(std::vector<SmState>& sms, const CtaNeed& need, uint64_t floor, unsigned last_sm)
      : sms_(sms), need_(need), ready_((sms.size() + 63) / 64), last_sm_(last_sm) {
    for (unsigned sm = 0; sm < sms.size(); ++sm) wait(sm, sms_[sm].earliest_start(floor, need).start, floor);
  }

  // The SM for the next CTA, no earlier than `floor`, and its slot.
  unsigned pick(uint64_t floor, uint64_t& start) {
    if (stale_ != kNone) {  // the SM used last, asked only now, as pick_sm asks it at this floor
      wait(stale_, sms_[stale_].earliest_start(floor, need_).start, floor);
      stale_ = kNone;
    }
    while (!waiting_.empty() && waiting_.front().first <= floor) set_ready(pop_waiting());
    start = floor;
    if (none_ready()) {
      start = waiting_.front().first;
      while (!waiting_.empty() && waiting_.front().first == start) set_ready(pop_waiting());
    }
    const unsigned sm = next_ready_after(last_sm_);
    ready_[sm / 64] &= ~(uint64_t(1) << (sm % 64));
    last_sm_ = sm;
    stale_ = sm;
    return sm;
  }

 private:
  static constexpr unsigned kNone = ~0u;
  void wait(unsigned sm, uint64_t fits_at, uint64_t floor) {
    if (fits_at <= floor)
      set_ready(sm);
    else
      push_waiting(fits_at, sm);
  }
  // waiting_ is a heap whose front fits first (ties in any order: they turn
  // ready together).
  void push_waiting(uint64_t fits_at, unsigned sm) {
    waiting_.emplace_back(fits_at, sm);
    std::push_heap(waiting_.begin(), waiting_.end(), std::greater<>());
  }
  unsigned pop_waiting() {
    std::pop_heap(waiting_.begin(), waiting_.end(), std::greater<>());
    const unsigned sm = waiting_.back().second;
    waiting_.pop_back();
    return sm;
  }
  void set_ready(unsigned sm) { ready_[sm / 64] |= uint64_t(1) << (sm % 64); }
  bool none_ready() const {
    return std::all_of(ready_.begin(), ready_.end(), [](uint64_t w) { return w == 0; });
  }
  // The first ready SM in round-robin order after `last`.
  unsigned next_ready_after(unsigned last) const {
    const unsigned n = static_cast<unsigned>(sms_.size());
    const unsigned from = last + 1 == n ? 0 : last + 1;
    if (auto sm = first_ready_in(from, n)) return *sm;
    return *first_ready_in(0, from);
  }
  std::optional<unsigned> first_ready_in(unsigned from, unsigned to) const {
    for (unsigned w = from / 64; w * 64 < to; ++w) {
      uint64_t bits = ready_[w];
      if (w == from / 64) bits &= ~uint64_t(0) << (from % 64);
      if (!bits) continue;
      const unsigned sm = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
      return sm < to ? std::optional<unsigned>(sm) : std::nullopt;
    }
    return std::nullopt;
  }

  std::vector<SmState>& sms_;
  const CtaNeed& need_;
  std::vector<uint64_t> ready_;                      // SMs whose slot is the floor
  std::vector<std::pair<uint64_t, unsigned>> waiting_;  // the others, by when they fit (a heap)
  unsigned last_sm_;
  unsigned stale_ = kNone;  // placed on since it was asked
};

}  // namespace

const char* policy_name(SchedPolicyKind policy) { return name_of(kSchedPolicies, policy).data(); }

SchedPolicyKind parse_policy(const std::string& name) {
  for (const auto& entry : kSchedPolicies)
    if (name == entry.name) return entry.value;
  fail_usage("unknown scheduling policy '" + name + "' (" + names_of(kSchedPolicies, ", ", " or ") + ")");
}

struct CtaScheduler::State {
  LaunchRules rules;
  std::vector<SmState> sms;
  unsigned last_sm;  // round-robin cursor
  uint64_t last_launch = 0;
  uint32_t kernels = 0;  // scheduled so far
  std::map<uint64_t, uint64_t> stream_end;
  std::multiset<uint64_t> kernel_ends;  // of the kernels scheduled so far
  std::vector<std::pair<unsigned, Slot>> slots;  // pick_sm's, reused from CTA to CTA

  State(unsigned n, const SharingOptions& s) : rules(s), sms(n), last_sm(n - 1) {}

  // A kernel's launch, its stream's previous kernel ended at `stream_ended`;
  // every end is known, so the launch always is.
  uint64_t launch_at(uint64_t stream_ended) {
    // Keep only the ends that matter: no later kernel launches before this one.
    kernel_ends.erase(kernel_ends.begin(), kernel_ends.upper_bound(last_launch));
    return *rules.launch_at(last_launch, stream_ended, {kernel_ends.begin(), kernel_ends.end()}, 0);
  }

  // Whether no SM holds a CTA at `floor`, asking each as pick_sm's first
  // CTA would: then no CTA of another kernel shares an SM with this one.
  bool gpu_free_at(uint64_t floor, const CtaNeed& need) {
    bool free = true;
    for (auto& sm : sms) {
      sm.earliest_start(floor, need);
      free &= sm.empty();
    }
    return free;
  }

  // Among the SMs with the earliest slot: while CTAs of other kernels are
  // resident there, the SM holding the fewest CTAs (free SMs first, then
  // spread); otherwise, and among equals, the policy's choice.
  unsigned pick_sm(SchedPolicyKind policy, uint64_t floor, const CtaNeed& need, uint64_t& start) {
    const unsigned n = static_cast<unsigned>(sms.size());
    slots.clear();  // in the policy's order
    bool shared = false;
    for (unsigned k = 0; k < n; ++k) {
      unsigned sm = policy == SchedPolicyKind::RoundRobin ? (last_sm + 1 + k) % n : k;
      slots.emplace_back(sm, sms[sm].earliest_start(floor, need));
      shared |= slots.back().second.others > 0;
    }
    const auto* best = &slots.front();
    for (const auto& c : slots) {
      const Slot& a = c.second;
      const Slot& b = best->second;
      if (a.start != b.start) {
        if (a.start < b.start) best = &c;
      } else if (shared && a.resident != b.resident) {
        if (a.resident < b.resident) best = &c;
      } else if (policy == SchedPolicyKind::Greedy && sms[c.first].work < sms[best->first].work) {
        best = &c;
      }
    }
    start = best->second.start;
    return best->first;
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
  const uint64_t stream_key = s.rules.stream_of(k.stream_id);
  auto stream = s.stream_end.find(stream_key);
  const uint64_t launch = s.launch_at(stream == s.stream_end.end() ? 0 : stream->second);
  for (auto& sm : s.sms) sm.begin_kernel();
  s.last_sm = static_cast<unsigned>(s.sms.size() - 1);

  const CtaNeed need{s.kernels++, k.ctas_per_sm, k.cta_load, &s.rules};
  const unsigned n_sms = static_cast<unsigned>(s.sms.size());
  const uint64_t wave_size = uint64_t(n_sms) * k.ctas_per_sm;
  KernelSchedule out;
  out.kernel_id = k.kernel_id;
  out.policy = policy_name(policy);
  out.launch = launch;
  out.sm.resize(k.num_ctas);
  out.start.resize(k.num_ctas);
  uint64_t floor = launch, end = launch, wave_end = launch;
  std::optional<RoundRobinPicker> alone;
  if (policy == SchedPolicyKind::RoundRobin && k.num_ctas > 0 && s.gpu_free_at(launch, need))
    alone.emplace(s.sms, need, launch, s.last_sm);
  uint64_t last_floor = floor;  // the floor of the last CTA placed by pick_sm or the picker
  for (uint32_t i = 0; i < k.num_ctas; ++i) {
    const uint64_t duration = s.rules.slot_cycles(k.cta_cycles.empty() ? 1 : k.cta_cycles[i]);
    const uint64_t dispatched = s.rules.dispatch_at(launch, i);
    uint64_t start = 0;
    unsigned sm;
    if (policy == SchedPolicyKind::Wave) {
      if (i % wave_size == 0) floor = wave_end;
      floor = std::max(floor, dispatched);
      sm = i % n_sms;
      start = s.sms[sm].earliest_start(floor, need).start;
    } else {
      floor = std::max(floor, dispatched);
      last_floor = floor;
      sm = alone ? alone->pick(floor, start) : s.pick_sm(policy, floor, need, start);
      floor = start;
    }
    s.sms[sm].place(start, duration, need);
    s.last_sm = sm;
    wave_end = std::max(wave_end, start + duration);
    end = std::max(end, start + duration);
    out.sm[i] = sm;
    out.start[i] = start - launch;
  }
  if (alone)  // every SM as pick_sm leaves it: asked at the last CTA's floor
    for (auto& sm : s.sms) sm.earliest_start(last_floor, need);
  s.last_launch = launch;
  s.stream_end[stream_key] = std::max(end, stream == s.stream_end.end() ? 0 : stream->second);
  s.kernel_ends.insert(end);
  return out;
}

KernelSchedule model_schedule(const GpuConfig& gpu, uint32_t kernel_id, uint32_t num_ctas,
                              unsigned ctas_per_sm, SchedPolicyKind policy,
                              const std::vector<uint64_t>& cta_cycles) {
  CtaScheduler scheduler(gpu.num_sms);
  return scheduler.schedule(KernelLaunch{kernel_id, 0, num_ctas, ctas_per_sm, cta_cycles}, policy);
}

}  // namespace sasskit
