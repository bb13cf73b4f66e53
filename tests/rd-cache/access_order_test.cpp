#include "access_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace sasskit::rdcache;

namespace {

// A group of `ctas` CTAs of `warps` warps, each with `insts` memory
// instructions at rising positions spaced by 1 to `gap`.
std::vector<CtaAccesses> group_of(uint32_t ctas, uint32_t warps, uint32_t insts, uint32_t gap, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<CtaAccesses> group(ctas);
  for (CtaAccesses& c : group) {
    c.warps.resize(warps);
    for (WarpAccesses& w : c.warps) {
      uint32_t pos = rng() % gap;
      const uint32_t n = rng() % (insts + 1);
      for (uint32_t k = 0; k < n; ++k, pos += 1 + rng() % gap) {
        w.pos.push_back(pos);
        w.inst.push_back(k);
      }
    }
  }
  return group;
}

// The documented order: by position, then CTA, then warp.
std::vector<MemRef> reference(const std::vector<CtaAccesses>& group) {
  std::vector<MemRef> refs;
  for (uint32_t c = 0; c < group.size(); ++c)
    for (uint32_t w = 0; w < group[c].warps.size(); ++w)
      for (uint32_t k = 0; k < group[c].warps[w].mem_insts(); ++k) refs.push_back(MemRef{c, w, k});
  const auto pos = [&](const MemRef& r) { return group[r.cta].warps[r.warp].pos[r.k]; };
  std::stable_sort(refs.begin(), refs.end(), [&](const MemRef& a, const MemRef& b) { return pos(a) < pos(b); });
  return refs;
}

bool same(const std::vector<MemRef>& a, const std::vector<MemRef>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const MemRef& x, const MemRef& y) {
    return x.cta == y.cta && x.warp == y.warp && x.k == y.k;
  });
}

}  // namespace

// Dense positions (counted turns) and sparse ones (sorted), appended after
// what `out` holds already.
TEST(RoundRobinOrder, IssuesByPositionThenCtaThenWarpForDenseAndSparsePositions) {
  const auto order = make_access_order("round-robin");
  for (uint32_t gap : {1u, 3u, 100000u})
    for (uint32_t seed = 0; seed < 20; ++seed) {
      const std::vector<CtaAccesses> group = group_of(1 + seed % 5, 1 + seed % 9, 12, gap, seed);
      std::vector<MemRef> out = {MemRef{7, 7, 7}};
      order->order(group, out);
      ASSERT_FALSE(out.empty());
      EXPECT_EQ(out[0].cta, 7u);
      EXPECT_TRUE(same(std::vector<MemRef>(out.begin() + 1, out.end()), reference(group)))
          << "gap " << gap << " seed " << seed;
    }
}
