// The one placement function (libcommon/placement.hpp): a recorded schedule
// is the placement, the modeled one is decided only without it, and a kernel
// whose CTA no SM can hold gets the one "no CTA fits" error.
#include <gtest/gtest.h>

#include <functional>

#include "libcommon/diag.hpp"
#include "libcommon/placement.hpp"
#include "tests/support/volta_like_gpu.hpp"

using namespace sasskit;

namespace {

// 4 CTAs of 256 threads on a 2-SM GPU: each SM holds several at once.
KernelToPlace four_ctas() {
  return KernelToPlace{.id = 3, .stream_id = 0, .label = "kernel 3 (k)", .where = "in.stream: record 1",
                       .cta = CtaResources{256, 32, 0}, .grid_ctas = 4};
}

}  // namespace

TEST(Placement, RecordedScheduleWinsAndIsNotDecidedAgain) {
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  Placement placement(gpu, SchedPolicyKind::RoundRobin);
  KernelSchedule recorded;
  recorded.kernel_id = 3;
  recorded.policy = "greedy";
  recorded.sm = {1, 1, 1, 1};
  recorded.start = {0, 0, 5, 5};
  recorded.launch = 42;
  EXPECT_EQ(placement.place(four_ctas(), &recorded, {}), recorded);
  // The recorded kernel left the scheduler alone: the next kernel is
  // modeled on an idle GPU, from its launch at cycle 0.
  const KernelSchedule next = placement.place(four_ctas(), nullptr, {1, 1, 1, 1});
  EXPECT_EQ(next.launch, 0u);
  EXPECT_EQ(next.sm, (std::vector<uint32_t>{0, 1, 0, 1}));
}

TEST(Placement, ModeledWithoutARecordedSchedule) {
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  Placement placement(gpu, SchedPolicyKind::RoundRobin);
  const KernelSchedule s = placement.place(four_ctas(), nullptr, {10, 10, 10, 10});
  EXPECT_EQ(s.policy, "round-robin");
  EXPECT_EQ(s.kernel_id, 3u);
  EXPECT_EQ(s.sm, (std::vector<uint32_t>{0, 1, 0, 1}));
  EXPECT_EQ(s.start, (std::vector<uint64_t>{0, 0, 0, 0}));
  // The same as the modeled schedule of one kernel alone.
  EXPECT_EQ(s, model_schedule(gpu, 3, 4, resident_ctas(gpu, four_ctas()), SchedPolicyKind::RoundRobin,
                              {10, 10, 10, 10}));
  // The policy is the Placement's.
  Placement wave(gpu, SchedPolicyKind::Wave);
  EXPECT_EQ(wave.place(four_ctas(), nullptr, {1, 1, 1, 1}).policy, "wave");
}

TEST(Placement, ARecordedScheduleMustCoverTheGrid) {
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  Placement placement(gpu, SchedPolicyKind::RoundRobin);
  KernelSchedule recorded;
  recorded.sm = {0, 1};
  recorded.start = {0, 0};
  try {
    placement.place(four_ctas(), &recorded, {});
    FAIL() << "a sched record for 2 of 4 CTAs was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_STREQ(e.what(), "places 2 CTAs; the grid has 4");
  }
}

TEST(Placement, NoCtaFitsIsOneMessageAtTheKernelRecord) {
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  KernelToPlace k = four_ctas();
  k.cta = CtaResources{1024, 128, 0};  // 131072 registers > 65536 per SM
  const std::string expected =
      "kernel 3 (k) cannot run on two: one CTA (1024 threads, 128 registers per thread, 0 bytes of shared memory) "
      "exceeds what an SM offers in registers";
  Placement placement(gpu, SchedPolicyKind::RoundRobin);
  const std::function<void()> asks[] = {[&] { resident_ctas(gpu, k); },
                                        [&] { placement.place(k, nullptr, {1, 1, 1, 1}); }};
  for (const auto& ask : asks) {
    try {
      ask();
      FAIL() << "a CTA of 131072 registers was placed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Failure);
      EXPECT_EQ(e.where(), "in.stream: record 1");
      EXPECT_EQ(e.what(), expected);
    }
  }
}

TEST(Placement, OccupancyFitsTheSmCapacityThatKernelsShare) {
  // A kernel alone is limited by its occupancy, never by the SM capacity
  // that CTAs of several kernels share: `occupancy` CTAs stay within it.
  GpuConfig gpu = test::volta_like_gpu("two", 2);
  gpu.reg_alloc_unit = 256;
  gpu.smem_alloc_unit = 128;
  gpu.smem_reserved_per_cta = 1024;
  gpu.smem_carveouts_kb = {0, 8, 16, 32, 64, 96};
  gpu.warp_size = 32;
  gpu.max_threads_per_cta = 1024;
  gpu.max_regs_per_thread = 255;
  for (const CtaResources& cta : {CtaResources{256, 32, 0}, CtaResources{96, 40, 5000}, CtaResources{1024, 64, 0},
                                  CtaResources{32, 255, 48 * 1024}, CtaResources{64, 0, 0}}) {
    const unsigned n = occupancy(gpu, cta).ctas_per_sm;
    ASSERT_GT(n, 0u);
    EXPECT_TRUE(within(cta_load(gpu, cta).times(n), sm_capacity(gpu))) << cta.threads << " threads";
    // and the SM holds no more of them than that.
    EXPECT_FALSE(within(cta_load(gpu, cta).times(32 + 1), sm_capacity(gpu)));
  }
  // Registers round up per warp; shared memory adds the reservation and
  // rounds up to the allocation unit.
  EXPECT_EQ(cta_load(gpu, CtaResources{96, 40, 5000}), (SmLoad{1, 3, 3 * 1280, 6144}));
}

TEST(Placement, PredictedCyclesByIdAreEachDistinctCountsOwn) {
  const GpuConfig gpu = test::volta_like_gpu("two", 2);
  const NonStallModel model(gpu);
  UnitCounts light{}, heavy{};
  light[size_t(UnitClass::Sp)] = 40;
  heavy[size_t(UnitClass::Sp)] = 4000;
  heavy[size_t(UnitClass::Ldst)] = 300;
  UnitCountsTable table;
  ASSERT_EQ(table.intern(light), 0u);
  ASSERT_EQ(table.intern(heavy), 1u);
  EXPECT_EQ(predicted_cycles_by_id(model, table),
            (std::vector<uint64_t>{predicted_cta_cycles(model, light), predicted_cta_cycles(model, heavy)}));
}
