#include <gtest/gtest.h>

#include "tests/support/gpu_models.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using sasskit::test::bundled;

namespace {

// The message of the usage error `f` throws; fails the test if it throws none.
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

std::string invalid_after(void (*change)(GpuConfig&)) {
  GpuConfig gpu = bundled("qv100");
  change(gpu);
  return usage_error([&] { validate(gpu); });
}

}  // namespace

TEST(UnitClass, NamesRoundTrip) {
  for (size_t i = 0; i < kUnitClasses; ++i) {
    UnitClass back{};
    ASSERT_TRUE(unit_from_name(unit_name(static_cast<UnitClass>(i)), back));
    EXPECT_EQ(static_cast<size_t>(back), i);
  }
  UnitClass u{};
  EXPECT_TRUE(unit_from_name("tensor", u));
  EXPECT_EQ(u, UnitClass::Tensor);
  EXPECT_FALSE(unit_from_name("FPU", u));
  EXPECT_STREQ(unit_name(UnitClass::Ldst), "LDST");
}

TEST(CacheGeometry, SetsFromSizeLineAndWays) {
  CacheGeometry c;
  c.size_bytes = 32 * 1024;
  c.line_bytes = 128;
  c.assoc = 64;
  EXPECT_EQ(c.sets(), 4u);
  c.assoc = 0;  // fully associative
  EXPECT_EQ(c.sets(), 1u);
}

TEST(GpuConfigValue, SizesAcceptBinarySuffixes) {
  GpuConfig gpu;
  set_gpu_config_value(gpu, "l2-size", "8MiB");
  EXPECT_EQ(gpu.l2.size_bytes, 8u << 20);
  set_gpu_config_value(gpu, "l2-size", "96KiB");
  EXPECT_EQ(gpu.l2.size_bytes, 96u << 10);
  set_gpu_config_value(gpu, "l2-size", "3 MB");
  EXPECT_EQ(gpu.l2.size_bytes, 3u << 20);
  set_gpu_config_value(gpu, "smem-reserved-per-cta", "1KiB");
  EXPECT_EQ(gpu.smem_reserved_per_cta, 1024u);
}

TEST(GpuConfigValue, BadValuesNameTheKey) {
  GpuConfig gpu;
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "l2-size", "8XB"); }).find("l2-size"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "num-sms", "80KiB"); }).find("num-sms"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "has-l0i", "maybe"); }).find("true or false"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "scheduler", "fifo"); }).find("gto, lrr or two-level"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "num-sms", "99999999999"); }).find("2^32"),
            std::string::npos);
  EXPECT_NE(usage_error([&] { set_gpu_config_value(gpu, "no-such-key", "1"); }).find("no-such-key"),
            std::string::npos);
}

TEST(GpuConfigValue, EnumsListsAndFlags) {
  GpuConfig gpu;
  set_gpu_config_value(gpu, "scheduler", "LRR");
  EXPECT_EQ(gpu.scheduler, SchedulerPolicy::Lrr);
  set_gpu_config_value(gpu, "scheduler", "two-level");
  EXPECT_EQ(gpu.scheduler, SchedulerPolicy::TwoLevel);
  EXPECT_STREQ(scheduler_name(gpu.scheduler), "two-level");
  set_gpu_config_value(gpu, "l2-write-policy", "write-back");
  EXPECT_EQ(gpu.l2.write_policy, WritePolicy::WriteBack);
  set_gpu_config_value(gpu, "smem-carveouts-kb", "[0, 8, 16]");
  EXPECT_EQ(gpu.smem_carveouts_kb, (std::vector<unsigned>{0, 8, 16}));
  set_gpu_config_value(gpu, "smem-carveouts-kb", "none");
  EXPECT_TRUE(gpu.smem_carveouts_kb.empty());
  set_gpu_config_value(gpu, "has-l0i", "false");
  EXPECT_FALSE(gpu.has_l0i);
  set_gpu_config_value(gpu, "unit-tensor-interval", "16");
  EXPECT_EQ(gpu.unit(UnitClass::Tensor).initiation_interval, 16u);
}

TEST(Validate, MissingValuesNameTheKey) {
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.num_sms = 0; }).find("'num-sms'"), std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.dram_bandwidth_gbs = 0; }).find("'dram-bandwidth'"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.units[2].latency = 0; }).find("'unit-dp-latency'"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.l0i.size_bytes = 0; }).find("'l0i-size'"), std::string::npos);
  EXPECT_NE(usage_error([] { validate(GpuConfig{}); }).find("'name'"), std::string::npos);
}

TEST(Validate, ContradictionsNameBothKeys) {
  const std::string sector = invalid_after([](GpuConfig& g) { g.l1d.sector_bytes = 48; });
  EXPECT_NE(sector.find("l1d-sector-size = 48 does not divide l1d-line-size = 128"), std::string::npos)
      << sector;
  const std::string ways = invalid_after([](GpuConfig& g) {
    g.l2.assoc = 24;
    g.l2.size_bytes = 8 << 20;
  });
  EXPECT_NE(ways.find("l2-assoc = 24"), std::string::npos) << ways;
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.l1d.size_bytes = 100; }).find("l1d-line-size"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.smem_per_sm = 40 << 10; }).find("smem-carveouts-kb"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.l1d.size_bytes = 64 << 10; }).find("unified-l1-size"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.max_threads_per_sm = 4096; }).find("max-warps-per-sm"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.smem_per_cta = 200 << 10; }).find("smem-per-cta"),
            std::string::npos);
  EXPECT_NE(invalid_after([](GpuConfig& g) { g.reg_alloc_unit = 300; }).find("reg-alloc-unit"),
            std::string::npos);
}

TEST(Validate, PascalNeedsNoL0OrCarveouts) {
  const GpuConfig gpu = bundled("gtx1080");
  EXPECT_FALSE(gpu.has_l0i);
  EXPECT_TRUE(gpu.smem_carveouts_kb.empty());
  EXPECT_EQ(gpu.unified_l1_smem_bytes, 0u);
  EXPECT_FALSE(gpu.l1_caches_global_loads);
  EXPECT_NO_THROW(validate(gpu));
}
