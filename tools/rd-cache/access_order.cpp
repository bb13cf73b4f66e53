#include "access_order.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::rdcache {

namespace {

class RoundRobin : public AccessOrder {
 public:
  void order(std::span<const CtaAccesses> group, std::vector<MemRef>& out) const override {
    // Sort by (position, slot in the group): a stable sort of refs that are
    // already in (CTA, warp) order needs only the position as key.
    const size_t first = out.size();
    std::vector<uint32_t> pos;
    for (uint32_t cta = 0; cta < group.size(); ++cta) {
      const auto& warps = group[cta].warps;
      for (uint32_t w = 0; w < warps.size(); ++w)
        for (uint32_t k = 0; k < warps[w].mem_insts(); ++k) {
          out.push_back(MemRef{cta, w, k});
          pos.push_back(warps[w].pos[k]);
        }
    }
    std::vector<uint32_t> idx(pos.size());
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return pos[a] < pos[b]; });
    std::vector<MemRef> sorted(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) sorted[i] = out[first + idx[i]];
    std::copy(sorted.begin(), sorted.end(), out.begin() + static_cast<ptrdiff_t>(first));
  }
};

class Serial : public AccessOrder {
 public:
  void order(std::span<const CtaAccesses> group, std::vector<MemRef>& out) const override {
    for (uint32_t cta = 0; cta < group.size(); ++cta) {
      const auto& warps = group[cta].warps;
      for (uint32_t w = 0; w < warps.size(); ++w)
        for (uint32_t k = 0; k < warps[w].mem_insts(); ++k) out.push_back(MemRef{cta, w, k});
    }
  }
};

}  // namespace

std::unique_ptr<AccessOrder> make_access_order(const std::string& name) {
  if (name == "round-robin") return std::make_unique<RoundRobin>();
  if (name == "serial") return std::make_unique<Serial>();
  fail_usage("unknown access order '" + name + "' (expected " + kAccessOrders + ")");
}

}  // namespace sasskit::rdcache
