// The stats record's counters (one field table drives packing, reading and
// merging) and pack_map_of's counted maps.
#include <gtest/gtest.h>

#include "formats/msgpack_pack.hpp"
#include "formats/sample_record.hpp"
#include "formats/stats_record.hpp"
#include "libcommon/diag.hpp"
#include "record_bytes.hpp"

using namespace sasskit;
using namespace sasskit::stream;
using sasskit::stream::test::record_of;

namespace {

// Every counter set to a value of its own, so a counter the record drops
// or reads into another member fails the comparison.
SimCounters distinct_counters(uint64_t base) {
  SimCounters c;
  uint64_t v = base;
  for (uint64_t* f : {&c.active_cycles, &c.sm_cycles, &c.sched_cycles, &c.insts, &c.thread_insts, &c.ctas,
                      &c.warp_cycles, &c.max_warps, &c.mem_insts, &c.mem_requests, &c.l1d_misses, &c.l2_sectors,
                      &c.dram_read_sectors, &c.dram_write_sectors, &c.smem_conflict_cycles,
                      &c.reg_bank_conflicts, &c.unknown_opcodes})
    *f = ++v;
  c.l2_write_sectors = c.l2_sectors - 1;
  for (auto& s : c.stall_type) s = ++v;
  for (auto& s : c.stall_event) s = ++v;
  for (auto& u : c.units) u = {++v, ++v};
  c.l0i = {++v, ++v};
  c.l1i = {++v, ++v};
  return c;
}

KernelStats stats_with(const SimCounters& total) {
  KernelStats s;
  s.kernel_id = 4;
  s.name = "k";
  s.gpu = "qv100";
  s.schedule = "sched-record";
  s.memory = "defaults";
  s.cycles = 900;
  s.total = total;
  s.per_sm = {{0, total}, {7, distinct_counters(500)}};
  s.per_pc.pc = {16, 32};
  s.per_pc.insts = {3, 4};
  for (auto& col : s.per_pc.stall_type) col = {1, 2};
  s.projection.simulated_cycles = s.projection.projected_cycles = 900;
  return s;
}

}  // namespace

TEST(StatsRecord, EveryCounterRoundTrips) {
  KernelStats s = stats_with(distinct_counters(100));
  s.projection.error_frac = 0.25;
  EXPECT_EQ(decode<KernelStats>(record_of(s)), s);
}

// The record's own scalars and its projection's, each its own value.
TEST(StatsRecord, EveryScalarAndProjectionFieldRoundTrips) {
  KernelStats s = stats_with(distinct_counters(100));
  s.stream_id = 2;
  s.start_cycle = 1234;
  s.projection = {true, 700, 900, 1300, 1500, 17, 0.125};
  EXPECT_EQ(decode<KernelStats>(record_of(s)), s);
}

TEST(StatsRecord, MergeSumsCountsAndTakesTheLongestSm) {
  SimCounters a = distinct_counters(100), b = distinct_counters(1000);
  SimCounters sum = a;
  sum.add(b);
  EXPECT_EQ(sum.active_cycles, b.active_cycles);
  EXPECT_EQ(sum.max_warps, b.max_warps);
  EXPECT_EQ(sum.insts, a.insts + b.insts);
  EXPECT_EQ(sum.unknown_opcodes, a.unknown_opcodes + b.unknown_opcodes);
  EXPECT_EQ(sum.dram_write_sectors, a.dram_write_sectors + b.dram_write_sectors);
  EXPECT_EQ(sum.stall_event.back(), a.stall_event.back() + b.stall_event.back());
  EXPECT_EQ(sum.l1i.misses, a.l1i.misses + b.l1i.misses);
}

TEST(StatsRecord, CountersAbsentBefore22ReadAsZeroOthersAreRequired) {
  SimCounters c = distinct_counters(100);
  KernelStats s = stats_with(c);
  const Record r = record_of(s);
  // A map that lacks one key: repack the "total" map without it.
  auto without = [&](std::string_view key) {
    msgpack::sbuffer buf;
    Packer pk(buf);
    const msgpack::object& o = r.object();
    pk.pack_map(o.via.map.size);
    for (uint32_t i = 0; i < o.via.map.size; ++i) {
      const auto& kv = o.via.map.ptr[i];
      pk.pack(kv.key);
      if (kv.key.as<std::string>() != "total") {
        pk.pack(kv.val);
        continue;
      }
      uint32_t kept = 0;
      for (uint32_t j = 0; j < kv.val.via.map.size; ++j) kept += kv.val.via.map.ptr[j].key.as<std::string>() != key;
      pk.pack_map(kept);
      for (uint32_t j = 0; j < kv.val.via.map.size; ++j)
        if (kv.val.via.map.ptr[j].key.as<std::string>() != key) {
          pk.pack(kv.val.via.map.ptr[j].key);
          pk.pack(kv.val.via.map.ptr[j].val);
        }
    }
    return Record(std::string(buf.data(), buf.size()), "test");
  };
  const KernelStats old = decode<KernelStats>(without("dram_read_sectors"));
  EXPECT_EQ(old.total.dram_read_sectors, 0u);
  EXPECT_EQ(old.total.dram_write_sectors, c.dram_write_sectors);
  EXPECT_THROW(decode<KernelStats>(without("reg_bank_conflicts")), Error);
  EXPECT_THROW(decode<KernelStats>(without("sched_cycles")), Error);
}

TEST(PackMapOf, CountsTheEntriesItWrites) {
  KernelSample s;
  s.selection = "even";
  const size_t bare = record_of(s).object().via.map.size;
  s.gpu = "qv100";
  s.sampling_error = 0.1;
  s.check_sm = 3;
  EXPECT_EQ(record_of(s).object().via.map.size, bare + 3);
}
