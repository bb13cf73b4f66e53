// The warp-scheduling policies a GPU model may name (sasskit-config(5)'s
// `scheduler` key). A new policy is a file defining its IssuePolicy and a
// factory, and one line here.
#include "scheduler.hpp"

#include "libcommon/diag.hpp"

namespace sasskit::pipesim {

std::unique_ptr<IssuePolicy> make_issue_policy(SchedulerPolicy policy, bool lrr_mask_scan) {
  switch (policy) {
    case SchedulerPolicy::Gto: return make_gto_policy();
    case SchedulerPolicy::Lrr: return make_lrr_policy(lrr_mask_scan);
    case SchedulerPolicy::TwoLevel: return make_two_level_policy();
  }
  throw Error(ExitCode::Internal, "pipe-sim", "unknown warp-scheduling policy");
}

}  // namespace sasskit::pipesim
