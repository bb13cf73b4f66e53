#include "launch_queue.hpp"

#include <algorithm>

namespace sasskit::pipesim {

SmLoad segment_load(const KernelPlan& p, const SmWork& work) {
  return p.cta_load.times(std::min<uint64_t>(work.ctas.size(), p.sim.ctas_per_sm));
}

LaunchQueue::LaunchQueue(const std::vector<QueuedKernel>& kernels, const TimelineStart& start,
                         const LaunchRules& rules)
    : start_(start), rules_(rules) {
  std::map<uint64_t, size_t> last_of_stream;
  for (size_t k = 0; k < kernels.size(); ++k) {
    Kernel kernel{.stream = kernels[k].stream};
    if (auto it = last_of_stream.find(kernel.stream); it != last_of_stream.end()) kernel.stream_before = it->second;
    last_of_stream[kernel.stream] = k;
    for (const QueuedKernel::Segment& s : kernels[k].segments) {
      kernel.segments.push_back(segments_.size());
      lanes_[s.sm].segments.push_back(segments_.size());
      segments_.push_back(Segment{.kernel = k, .load = s.load});
    }
    kernel.left = kernel.segments.size();
    kernels_.push_back(std::move(kernel));
  }
}

bool LaunchQueue::resolve() {
  bool changed = false;
  while (next_launch_ < kernels_.size() && try_launch(next_launch_)) {
    ++next_launch_;
    changed = true;
  }
  for (auto& [sm, lane] : lanes_) changed |= advance(lane);
  return changed;
}

void LaunchQueue::start_by(size_t segment, uint64_t at) {
  Segment& s = segments_[segment];
  if (s.start == kNever || s.start > at) s.start = at;
}

bool LaunchQueue::end(size_t segment, uint64_t end) {
  Segment& s = segments_[segment];
  Kernel& k = kernels_[s.kernel];
  s.done = true;
  s.end = end;
  k.end = std::max(k.end, end);
  std::erase(active_, segment);
  if (--k.left > 0) return false;
  --unfinished_;
  return true;
}

// The launch the rules give the kernel from the kernels before it: those
// launched (their ends, where known) and the previous one of its stream,
// which must have ended.
bool LaunchQueue::try_launch(size_t k) {
  Kernel& kernel = kernels_[k];
  uint64_t not_before = start_.floor, stream_end = 0;
  if (k > 0) not_before = std::max(not_before, kernels_[k - 1].launch);
  if (kernel.stream_before) {
    const Kernel& before = kernels_[*kernel.stream_before];
    if (!before.finished()) return false;
    stream_end = before.end;
  } else if (auto it = start_.stream_end.find(kernel.stream); it != start_.stream_end.end()) {
    stream_end = it->second;
  }
  std::erase_if(resident_, [&](size_t j) { return kernels_[j].finished() && kernels_[j].end <= now_; });
  std::vector<uint64_t> ends;
  size_t pending = 0;
  for (size_t j : resident_) {
    if (kernels_[j].finished())
      ends.push_back(kernels_[j].end);
    else
      ++pending;
  }
  const std::optional<uint64_t> launch = rules_.launch_at(not_before, stream_end, std::move(ends), pending);
  if (!launch) return false;
  kernel.launch = *launch;
  kernel.end = kernel.launch;
  resident_.push_back(k);
  if (kernel.left > 0) ++unfinished_;
  return true;
}

// Starts the lane's segments in order, each once its kernel has launched,
// its first CTA may be dispatched, and the SM has room for it (PKP may have
// given a stopped kernel's segments their start already).
bool LaunchQueue::advance(Lane& lane) {
  bool changed = false;
  for (; lane.next < lane.segments.size(); ++lane.next) {
    const size_t i = lane.segments[lane.next];
    Segment& s = segments_[i];
    if (s.start != kNever) continue;
    Kernel& kernel = kernels_[s.kernel];
    if (!kernel.launched()) break;
    const std::optional<uint64_t> start = room_at(lane, s.load, rules_.dispatch_at(kernel.launch, 0));
    if (!start) break;
    s.start = *start;
    kernel.origin = std::min(kernel.origin, s.start);
    active_.push_back(i);
    changed = true;
  }
  return changed;
}

// The first cycle from `from` on at which the SM holds `need` beside the
// lane's started segments that still run then (an idle SM holds any
// segment); nothing while that waits for a segment whose end is not known.
std::optional<uint64_t> LaunchQueue::room_at(const Lane& lane, const SmLoad& need, uint64_t from) const {
  struct Held {
    SmLoad load;
    size_t segments = 0;
  } held;
  std::vector<std::pair<uint64_t, SmLoad>> ending;  // done segments that end after `from`
  for (size_t i : lane.segments) {
    const Segment& s = segments_[i];
    if (s.start == kNever || (s.done && s.end <= from)) continue;
    held.load += s.load;
    ++held.segments;
    if (s.done) ending.emplace_back(s.end, s.load);
  }
  std::ranges::sort(ending, {}, [](const auto& e) { return e.first; });
  return first_room(
      from, held, ending.begin(), ending.end(),
      [&](const Held& h) { return h.segments == 0 || rules_.fits(h.load, need); },
      [](Held& h, const std::pair<uint64_t, SmLoad>& e) {
        h.load -= e.second;
        --h.segments;
      });
}

}  // namespace sasskit::pipesim
