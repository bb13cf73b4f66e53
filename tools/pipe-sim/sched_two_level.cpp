// Two-level warp scheduling (Narasiman et al., "Improving GPU Performance
// via Large Warps and Two-Level Warp Scheduling", MICRO 2011, §4): a
// sub-core's warps form fetch groups of consecutive slots, and the
// scheduler keeps to one group, round-robin within it, so that the groups
// reach their long-latency operations at different times and one group
// computes while another waits. The paper switches groups when every warp of
// the current one is stalled on a long-latency operation; here the scan
// moves on to the next group whenever no warp of the current group can
// issue this cycle, and the group that issues becomes current.
#include <algorithm>

#include "scheduler.hpp"

namespace sasskit::pipesim {
namespace {

// The paper's fetch groups hold 8 of a core's 32 warps.
constexpr unsigned kGroupWarps = 8;

class TwoLevelPolicy final : public IssuePolicy {
 public:
  bool pick(IssueScan& scan) override {
    const WarpHeads& warps = scan.warps();
    const auto& slots = warps.by_slot(scan.subcore());
    const unsigned groups = (warps.subcore_slots() + kGroupWarps - 1) / kGroupWarps;
    if (last_.size() < groups) last_.resize(groups, kNone);
    for (unsigned k = 0; k < groups; ++k) {
      unsigned g = (current_ + k) % groups;
      auto first = std::lower_bound(slots.begin(), slots.end(), g, [&](uint32_t w, unsigned group) {
        return group_of(warps, w) < group;
      });
      auto end = std::find_if(first, slots.end(), [&](uint32_t w) { return group_of(warps, w) != g; });
      if (first == end) continue;
      // Round-robin within the group, starting after its last issued warp.
      auto start = last_[g] == kNone ? first : std::upper_bound(first, end, last_[g]);
      for (auto it = start; it != end; ++it)
        if (scan.consider(*it)) return true;
      for (auto it = first; it != start; ++it)
        if (scan.consider(*it)) return true;
    }
    return false;
  }
  void issued(const WarpHeads& warps, uint32_t w) override {
    current_ = group_of(warps, w);
    last_[current_] = w;
  }

 private:
  static unsigned group_of(const WarpHeads& warps, uint32_t w) { return w / warps.subcores() / kGroupWarps; }

  unsigned current_ = 0;  // the group that issued last
  std::vector<uint32_t> last_;  // per group: its last issued warp
};

}  // namespace

std::unique_ptr<IssuePolicy> make_two_level_policy() { return std::make_unique<TwoLevelPolicy>(); }

}  // namespace sasskit::pipesim
