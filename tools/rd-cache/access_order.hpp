// The order in which one SM's warps issue their memory instructions. The
// trace has no timing, so this is a model; it is a strategy so that other
// orders can be tried (rd-cache --order).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernel_accesses.hpp"

namespace sasskit::rdcache {

// One dynamic memory instruction: group[cta].warps[warp], its k-th.
struct MemRef {
  uint32_t cta = 0;
  uint32_t warp = 0;
  uint32_t k = 0;
};

class AccessOrder {
 public:
  virtual ~AccessOrder() = default;
  // Appends the memory instructions of `group`, CTAs resident on one SM at
  // the same time in launch order, in issue order.
  virtual void order(std::span<const CtaAccesses> group, std::vector<MemRef>& out) const = 0;
};

// "round-robin": warps advance in lock step, one dynamic instruction each
// per turn, in CTA then warp order; a memory instruction at dynamic position
// p of its warp issues in turn p. Real warps drift apart (stalls, scheduler
// policy); this keeps the interleaving that governs L1 reuse between warps.
// "serial": each warp runs to its end before the next starts (no
// interleaving): a bound on how much interleaving matters.
std::unique_ptr<AccessOrder> make_access_order(const std::string& name);
inline constexpr const char* kAccessOrders = "round-robin, serial";

}  // namespace sasskit::rdcache
