// The frontend built alone, against a fake warp table: which warp it picks,
// how many instructions one fetch takes, and when they enter the buffer.
#include <gtest/gtest.h>

#include "decode.hpp"
#include "frontend.hpp"
#include "micro.hpp"
#include "warp_table.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

struct Fetch {
  uint32_t warp, count, branch_at;
  uint64_t ready;  // delivered: decoded by then; started: 0
};

// Resident warps on one sub-core that may fetch while their buffer has
// room and their trace instructions left; it records the fetches started
// and delivered, and fills the buffers as the warp table does.
class FakeWarps {
 public:
  FakeWarps(const std::vector<WarpTrace>& traces, unsigned ibuf_depth) : heads_(traces.size(), 1, false) {
    for (uint32_t w = 0; w < traces.size(); ++w) {
      Warp warp;
      warp.active = true;
      warp.trace = &traces[w];
      warp.ibuf = InstBuffer(ibuf_depth);
      warps_.push_back(std::move(warp));
      heads_.add(w);
    }
  }
  std::vector<Fetch> started, delivered;

  const WarpHeads& heads() const { return heads_; }
  const Warp& warp(uint32_t w) const { return warps_[w]; }
  bool can_fetch(uint32_t w) const {
    const Warp& warp = warps_[w];
    return warp.fetching == 0 && warp.ibuf.size() < warp.ibuf.depth() && warp.next_fetch < warp.trace->inst.size();
  }
  uint32_t fetchable(unsigned) const {
    uint32_t n = 0;
    for (uint32_t w = 0; w < warps_.size(); ++w) n += can_fetch(w);
    return n;
  }
  void start_fetch(uint32_t w, uint32_t count, uint32_t branch_at) {
    started.push_back({w, count, branch_at, 0});
    warps_[w].fetching = count;
    warps_[w].next_fetch += count;
  }
  void deliver_fetch(uint32_t w, uint32_t count, uint64_t ready) {
    delivered.push_back({w, count, kNone, ready});
    Warp& warp = warps_[w];
    for (uint32_t i = 0; i < count; ++i) warp.ibuf.push_back({warp.next_fetch - count + i, ready});
    warp.fetching = 0;
  }

 private:
  WarpHeads heads_;
  std::vector<Warp> warps_;
};

// One sub-core whose L0 instruction cache always hits after 2 cycles;
// warps of FADDs at consecutive PCs in one 128-byte line.
GpuConfig l0_latency_2_gpu() {
  GpuConfig g = one_subcore_gpu();
  g.l0i.latency = 2;
  return g;
}

class OneSubCoreFrontend : public ::testing::Test, protected LoneStage {
 protected:
  OneSubCoreFrontend() : LoneStage(l0_latency_2_gpu()) {
    for (int i = 0; i < 6; ++i) t_.add("FADD", {10}, {2, 3});
    t_.add("BRA", {}, {});
    build();
  }
  // Fetch's cycles from `from` to `to`, with the warps of `warps`.
  void run(FakeWarps& warps, uint64_t from, uint64_t to) {
    for (uint64_t t = from; t < to; ++t) {
      clock_.now = t;
      clock_.take();
      frontend_.arbitrate();
      frontend_.fetch(0, warps);
    }
  }

  static constexpr unsigned kFetchWidth = 2;
  Frontend frontend_{wiring_, kFetchWidth};
};

TEST_F(OneSubCoreFrontend, AFetchFillsTheBufferAtFetchWidthAfterTheCacheLatency) {
  const std::vector<WarpTrace> traces{make_warp(0, t_.insts, {0, 1, 2, 3, 4, 5})};
  FakeWarps warps(traces, 4);
  run(warps, 100, 101);
  ASSERT_EQ(warps.started.size(), 1u);
  EXPECT_EQ(warps.started[0].count, kFetchWidth);
  EXPECT_EQ(warps.started[0].branch_at, kNone);
  EXPECT_EQ(clock_.next(), 101u);  // progressed; then it waits for the L0
  run(warps, 101, 102);
  EXPECT_EQ(clock_.next(), 102u);
  EXPECT_TRUE(warps.delivered.empty());
  // Delivered at 102, decoded a cycle later; the next fetch starts at once
  // and takes the two the buffer has room for.
  run(warps, 102, 103);
  ASSERT_EQ(warps.delivered.size(), 1u);
  EXPECT_EQ(warps.delivered[0].count, kFetchWidth);
  EXPECT_EQ(warps.delivered[0].ready, 103u);
  EXPECT_EQ(warps.warp(0).ibuf.size(), kFetchWidth);
  ASSERT_EQ(warps.started.size(), 2u);
  EXPECT_EQ(warps.started[1].count, 2u);
  run(warps, 103, 110);
  EXPECT_EQ(warps.warp(0).ibuf.size(), 4u);  // full: no third fetch
  EXPECT_EQ(warps.started.size(), 2u);
}

TEST_F(OneSubCoreFrontend, WarpsFetchInTurnAndATakenBranchEndsAFetch) {
  // Warp 1 branches back from the BRA (index 6) to the first FADD.
  const std::vector<WarpTrace> traces{make_warp(0, t_.insts, {0, 1, 2, 3}), make_warp(1, t_.insts, {5, 6, 0, 1})};
  FakeWarps warps(traces, 4);
  run(warps, 100, 103);
  ASSERT_EQ(warps.started.size(), 2u);
  EXPECT_EQ(warps.started[0].warp, 0u);
  EXPECT_EQ(warps.started[1].warp, 1u);  // round robin: not warp 0 again
  EXPECT_EQ(warps.started[1].count, 2u);
  EXPECT_EQ(warps.started[1].branch_at, 1u);  // the BRA's trace position
}

}  // namespace
