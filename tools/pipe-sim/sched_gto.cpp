// Greedy-then-oldest (Rogers et al., MICRO 2012): the warp that issued
// last goes first, then the others oldest first.
#include "scheduler.hpp"

namespace sasskit::pipesim {
namespace {

class GtoPolicy final : public IssuePolicy {
 public:
  bool pick(IssueScan& scan) override {
    const WarpHeads& warps = scan.warps();
    // A warp with an instruction in the greedy slot is one of this
    // sub-core's warps (slot w belongs to sub-core w % sub-cores); one with
    // none, or a free slot, has an Empty head, which no scan acts on.
    bool greedy = greedy_ != kNone && warps.head(greedy_).kind != Head::Kind::Empty;
    if (greedy && scan.consider(greedy_)) return true;
    for (uint32_t w : warps.by_age(scan.subcore()))
      if (!(greedy && w == greedy_) && scan.consider(w)) return true;
    return false;
  }
  void issued(const WarpHeads&, uint32_t w) override { greedy_ = w; }

 private:
  uint32_t greedy_ = kNone;  // the last issued warp
};

}  // namespace

std::unique_ptr<IssuePolicy> make_gto_policy() { return std::make_unique<GtoPolicy>(); }

}  // namespace sasskit::pipesim
