#include "access_order.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::rdcache {

namespace {

// Memory instructions a turn at a time: each CTA's warps in order, a
// warp's own in order of position (as they are held). Turns are counted
// (counting sort, linear, no allocation once the buffers have grown) where
// they are few beside the instructions; otherwise sorted by (position, slot).
class RoundRobin : public AccessOrder {
 public:
  void order(std::span<const CtaAccesses> group, std::vector<MemRef>& out) const override {
    size_t n = 0;
    uint32_t last_turn = 0;  // a warp's positions rise: its last is its largest
    for (const CtaAccesses& cta : group)
      for (const WarpAccesses& w : cta.warps)
        if (w.mem_insts() > 0) {
          n += w.mem_insts();
          last_turn = std::max(last_turn, w.pos.back());
        }
    const size_t first = out.size();
    out.resize(first + n);
    const std::span<MemRef> to(out.data() + first, n);
    if (last_turn < kDenseTurnsPerRef * n + kDenseTurnsAlways)
      by_counted_turns(group, last_turn, to);
    else
      by_sorted_turns(group, to);
  }

 private:
  static constexpr size_t kDenseTurnsPerRef = 8, kDenseTurnsAlways = 256;

  // Calls body(ref, position) for every memory instruction, CTA by CTA, warp by warp.
  template <class F>
  static void each_ref(std::span<const CtaAccesses> group, F&& body) {
    for (uint32_t cta = 0; cta < group.size(); ++cta) {
      const auto& warps = group[cta].warps;
      for (uint32_t w = 0; w < warps.size(); ++w)
        for (uint32_t k = 0; k < warps[w].mem_insts(); ++k) body(MemRef{cta, w, k}, warps[w].pos[k]);
    }
  }

  static void by_counted_turns(std::span<const CtaAccesses> group, uint32_t last_turn, std::span<MemRef> to) {
    thread_local std::vector<uint32_t> at;  // per turn: where its next ref goes
    at.assign(size_t{last_turn} + 2, 0);
    each_ref(group, [&](MemRef, uint32_t pos) { ++at[pos + 1]; });
    for (size_t t = 1; t < at.size(); ++t) at[t] += at[t - 1];
    each_ref(group, [&](MemRef ref, uint32_t pos) { to[at[pos]++] = ref; });
  }

  static void by_sorted_turns(std::span<const CtaAccesses> group, std::span<MemRef> to) {
    thread_local std::vector<MemRef> refs;
    thread_local std::vector<uint64_t> keys;  // position, then slot: distinct
    refs.clear();
    keys.clear();
    each_ref(group, [&](MemRef ref, uint32_t pos) {
      keys.push_back(uint64_t{pos} << 32 | refs.size());  // a group's refs are far fewer than 2^32
      refs.push_back(ref);
    });
    std::sort(keys.begin(), keys.end());
    for (size_t i = 0; i < keys.size(); ++i) to[i] = refs[keys[i] & UINT32_MAX];
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
