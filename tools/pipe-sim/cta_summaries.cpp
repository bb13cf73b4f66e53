#include "cta_summaries.hpp"

#include <numeric>

namespace sasskit::pipesim {

void CtaSummaries::add(uint64_t linear, const UnitCounts& units) {
  if (in_grid_order_ && linear != ids_.size()) {
    in_grid_order_ = false;
    linear_.resize(ids_.size());
    std::iota(linear_.begin(), linear_.end(), uint64_t{0});
  }
  if (!in_grid_order_) linear_.push_back(linear);
  ids_.push_back(distinct_.intern(units));
}

}  // namespace sasskit::pipesim
