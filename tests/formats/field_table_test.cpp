// The records' field tables (formats/field_table.hpp): every field of each
// record round-trips, so a line missing from a table (a field neither
// written nor read) fails here; and what a table checks as it reads. The
// kernel and memcpy records' fields round-trip in stream_test, the stats
// record's in stats_record_test.
#include <gtest/gtest.h>

#include "formats/cache_record.hpp"
#include "formats/plan_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "record_bytes.hpp"

using namespace sasskit;
using namespace sasskit::stream;
using sasskit::stream::test::record_of;
using sasskit::stream::test::record_with;

namespace {

template <class T>
T round_trip(const T& value) {
  return decode<T>(record_of(value));
}

// Every field set, none to its default, so a field a table drops reads
// back as its default and the comparison fails.
KernelCacheModel full_cache() {
  return KernelCacheModel{
      .kernel_id = 3, .gpu = "QV100", .l1_hit_rate = 0.25, .l2_hit_rate = 0.5, .gmem_requests = 40, .ctas = 6,
      // two PCs
      .pc = {0x10, 0x20}, .amat = {31.5, 200.25}, .pc_l1_hit_rate = {0.5, 0.125}, .pc_l2_hit_rate = {0.75, 0.0625},
      .pc_requests = {7, 8}, .pc_sectors = {28, 32}, .pc_l2_sectors = {14, 30}, .pc_writeback_sectors = {2, 3},
      .kernel_amat = 120.5, .l1_sectors = 60, .l1_hits = 15, .l2_sectors = 44, .l2_hits = 22,
      .l2_bound_sectors = 45, .l2_bound_write_sectors = 9,
      .dram_sectors = 25, .dram_read_sectors = 20, .dram_write_sectors = 5,
      // two SMs and two spaces
      .sm = {0, 4}, .sm_l1_hit_rate = {0.375, 0.125}, .sm_l2_hit_rate = {0.625, 0.875},
      .space = {"global.ld", "local.st"}, .space_requests = {30, 10}, .space_sectors = {50, 10}};
}

KernelSample full_sample() {
  KernelSample s;
  s.kernel_id = 2;
  s.selection = "top";
  s.sms = {3, 1};
  s.ctas = {9, 4, 1};
  s.predicted_cycles = {10.5, 20.25, 5.0, 7.5};
  s.kernel_insts = 1000;
  s.sample_insts = 300;
  s.kernel_ctas = 12;
  s.sm_insts = {100, 200, 300, 400};
  s.sampling_error = -0.125;
  s.check_sm = 1;
  s.gpu = "QV100";
  return s;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(FieldTable, EveryCacheFieldRoundTrips) {
  const KernelCacheModel c = full_cache();
  EXPECT_EQ(round_trip(c), c);
}

TEST(FieldTable, EverySampleFieldRoundTrips) {
  const KernelSample s = full_sample();
  EXPECT_EQ(round_trip(s), s);
}

TEST(FieldTable, EverySchedFieldRoundTrips) {
  const KernelSchedule s{5, "greedy", {1, 0, 1}, {0, 10, 250}, 777, "QV100"};
  EXPECT_EQ(round_trip(s), s);
}

TEST(FieldTable, EveryPlanScalarRoundTrips) {
  Plan p;
  p.method = "stem";
  p.params = {{"epsilon", 0.05}, {"seed", 7}};
  p.unit = "cycles";
  p.invocations = 30;
  p.total = 1.5e6;
  p.error_bound = 0.04;
  p.clusters = {{"k#0", 30, 2, 5e4, 10}};
  p.entries = {{4, "k", 0, 2, 15}};
  EXPECT_EQ(round_trip(p), p);
}

TEST(FieldTable, IfSetFieldsAreWrittenOnlyWhenSetAndReadBackUnset) {
  KernelSample s = full_sample();
  s.gpu.clear();
  s.sm_insts.clear();
  s.sampling_error.reset();
  s.check_sm.reset();
  const Record r = record_of(s);
  for (const char* key : {"gpu", "sm_insts", "sampling_error", "check_sm"}) EXPECT_FALSE(r.raw(key)) << key;
  EXPECT_EQ(decode<KernelSample>(r), s);
}

TEST(FieldTable, ARequiredFieldMissingIsRefusedASinceFieldReadsAsEmpty) {
  const KernelSchedule s = decode<KernelSchedule>(record_with([](auto& map) {
    map.type(RecordType::Sched);
    map("kernel", 1);
    map("policy", "wave");
    map("sm", std::vector<uint32_t>{0});
    map("start", std::vector<uint64_t>{0});
  }));
  EXPECT_EQ(s.launch, 0u);  // Since: absent reads as 0
  const Record no_bytes = record_with([](auto& map) {
    map.type(RecordType::Memcpy);
    map("address", 1);
  });
  EXPECT_EQ(error_of([&] { decode<Memcpy>(no_bytes); }), "field 'bytes' is missing");
}

TEST(FieldTable, AColumnFollowsItsRowsAndARateIsInZeroToOne) {
  KernelCacheModel c = full_cache();
  c.pc_sectors.push_back(1);
  EXPECT_EQ(error_of([&] { round_trip(c); }), "cache column 'pc_sectors' has 3 entries, 'pc' has 2");
  c = full_cache();
  c.sm_l2_hit_rate[1] = 1.5;
  EXPECT_EQ(error_of([&] { round_trip(c); }), "field 'sm_l2_hit_rate' holds 1.500000, not a rate in [0, 1]");
  c = full_cache();
  c.l1_hit_rate = std::nan("");
  EXPECT_NE(error_of([&] { round_trip(c); }).find("field 'l1_hit_rate' holds"), std::string::npos);
}

TEST(FieldTable, AKernelsGridNeedsThreeValues) {
  const Record r = record_with([](auto& map) {
    map.type(RecordType::Kernel);
    map("id", 1);
    map("name", "k");
    map("grid", std::vector<uint32_t>{1, 2});
  });
  EXPECT_EQ(error_of([&] { decode<KernelInfo>(r); }), "field 'grid' needs 3 values");
}
