// Reading the stream in batches of complete kernels: the batches follow the
// memory budget, records stay in order, a record about a kernel that is
// already complete is refused, and the simulated output does not depend on
// the batching, nor on whether the CTAs are spilled or held.
#include <gtest/gtest.h>

#include <sstream>

#include "micro.hpp"
#include "output.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::pipesim;
using namespace sasskit::pipesim::test;

namespace {

struct MiniKernel {
  KernelInfo info;
  InstTable table;
  std::vector<CtaTrace> ctas;
};

// Kernel `id`: 2 CTAs of 2 warps running a load and dependent adds.
MiniKernel mini_kernel(uint32_t id, uint64_t stream_id = 0) {
  TableBuilder t;
  uint32_t ld = t.add("LDG.E", {4}, {2}, 4), add = t.add("IADD3", {5}, {4, 5}), exit = t.add("EXIT", {}, {});
  MiniKernel k;
  k.info = make_launch(id, std::string("k") + std::to_string(id), 2, 64);
  k.info.stream_id = stream_id;
  k.table.kernel_id = id;
  k.table.insts = t.insts;
  for (uint32_t c = 0; c < 2; ++c)
    k.ctas.push_back(
        make_cta({make_warp(0, t.insts, {ld, add, add, exit}), make_warp(1, t.insts, {ld, add, exit})}, c, id));
  return k;
}

std::string stream_bytes(const std::function<void(stream::Writer&)>& body) {
  std::ostringstream out;
  stream::Writer w(out, "test", stream::Header{}, stream::Stage{"test", "0", {}});
  body(w);
  w.finish();
  return out.str();
}

void write_kernel(stream::Writer& w, const MiniKernel& k) {
  w.write(k.info);
  w.write(k.table);
  for (const auto& c : k.ctas) w.write(c);
}

// The third kernel on `third_stream`.
std::string three_kernels(uint64_t third_stream = 1) {
  return stream_bytes([&](stream::Writer& w) {
    for (uint32_t id = 1; id <= 3; ++id) write_kernel(w, mini_kernel(id, id == 3 ? third_stream : 0));
  });
}

struct Collect : BatchSink {
  std::vector<Workload> batches;
  void batch(Workload&& w) override { batches.push_back(std::move(w)); }
};

std::vector<Workload> read_batches(const std::string& bytes, size_t batch_bytes,
                                   CtaIntake intake = CtaIntake::Spill) {
  std::istringstream in(bytes);
  stream::Reader reader(in, "test");
  Collect collect;
  read_batches(reader, BatchOptions{batch_bytes, intake}, collect);
  return std::move(collect.batches);
}

std::string simulated(const std::string& bytes, size_t batch_bytes, CtaIntake intake = CtaIntake::Spill) {
  std::istringstream in(bytes);
  stream::Reader reader(in, "test");
  RunOptions opt;
  opt.sim.gpu = test_gpu();
  opt.sim.gpu.kernel_launch_latency = 100;
  std::ostringstream out;
  const auto sink = stream_sink(out, "test", reader.header(), stream::Stage{"pipe-sim", "0", {}}, true);
  StreamOutput run;
  run.batches = BatchOptions{batch_bytes, intake};
  run.sink = sink.get();
  simulate_stream(reader, opt, run);
  sink->finish();
  return out.str();
}

// The stats records of a simulated stream.
std::vector<KernelStats> stats_of(const std::string& bytes) {
  std::istringstream in(bytes);
  stream::Reader reader(in, "test");
  std::vector<KernelStats> out;
  for (stream::Record r; reader.next(r);)
    if (r.type() == stream::RecordType::Stats) out.push_back(stream::decode<KernelStats>(r));
  return out;
}

}  // namespace

TEST(Batches, BatchesFollowTheBudget) {
  const std::string bytes = three_kernels();
  auto one_each = read_batches(bytes, 1, CtaIntake::Hold);
  ASSERT_EQ(one_each.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    ASSERT_EQ(one_each[i].kernels.size(), 1u);
    EXPECT_EQ(one_each[i].kernels[0].info.id, i + 1);
    EXPECT_EQ(one_each[i].kernels[0].ctas.size(), 2u);
    EXPECT_EQ(one_each[i].records.size(), 4u);  // kernel, insts, 2 cta
    EXPECT_EQ(one_each[i].kernels[0].last_record, 3u);
  }
  auto together = read_batches(bytes, size_t(1) << 30, CtaIntake::Hold);
  ASSERT_EQ(together.size(), 1u);
  EXPECT_EQ(together[0].kernels.size(), 3u);
  EXPECT_EQ(together[0].records.size(), 12u);
  EXPECT_EQ(together[0].kernels[2].last_record, 11u);
}

TEST(Batches, SpilledCtasLeaveOnlyTheirSummary) {
  auto batches = read_batches(three_kernels(), size_t(1) << 30);
  ASSERT_EQ(batches.size(), 1u);
  const Workload& w = batches[0];
  ASSERT_EQ(w.records.size(), 9u);  // per kernel: kernel, insts, one run of 2 spilled cta records
  ASSERT_TRUE(w.spill);
  EXPECT_EQ(w.spill->size(), 6u);
  for (size_t k = 0; k < 3; ++k) {
    const KernelInput& in = w.kernels[k];
    EXPECT_TRUE(in.ctas.empty());
    ASSERT_EQ(in.spilled.size(), 2u);
    EXPECT_EQ(in.last_record, 3 * k + 2);
    EXPECT_EQ(w.records[in.last_record].spilled_begin, 2 * k);
    EXPECT_EQ(w.records[in.last_record].spilled_end, 2 * k + 2);
    EXPECT_EQ(in.first_spilled, 2 * k);
    EXPECT_EQ(in.spilled.linear(1), 1u);
    EXPECT_EQ(total(in.spilled.units(0)), 7u);  // warps of 4 and 3 instructions
    EXPECT_EQ(in.spilled.units(0)[size_t(UnitClass::Ldst)], 2u);
    EXPECT_EQ(in.spilled.distinct().size(), 1u);  // both CTAs run the same instructions
  }
}

TEST(Batches, OutputDoesNotDependOnSpilling) {
  const std::string bytes = three_kernels();
  EXPECT_EQ(simulated(bytes, size_t(1) << 30, CtaIntake::Hold), simulated(bytes, size_t(1) << 30));
  EXPECT_EQ(simulated(bytes, 1, CtaIntake::Hold), simulated(bytes, 1));
}

// Placement takes the CTAs in grid order, stable within a grid index: CTAs
// of different lengths, one of them twice, written out of grid order (the
// reader then keeps their places) run as written in grid order, held or
// spilled.
TEST(Batches, CtasOutOfGridOrderRunAsInGridOrder) {
  const uint32_t ld = 0, add = 1, exit = 2;  // mini_kernel's table
  auto kernel = [&](const std::vector<uint32_t>& order) {
    MiniKernel k = mini_kernel(1);
    k.info.grid = {8, 1, 1};
    k.ctas.clear();
    for (uint32_t x : order) {
      std::vector<uint32_t> seq{ld};
      seq.insert(seq.end(), 1 + 3 * x, add);
      seq.push_back(exit);
      k.ctas.push_back(make_cta({make_warp(0, k.table.insts, seq)}, x, 1));
    }
    return stream_bytes([&](stream::Writer& w) { write_kernel(w, k); });
  };
  const std::string sorted = kernel({0, 1, 2, 3, 4, 5, 6, 7}), shuffled = kernel({0, 1, 5, 2, 7, 3, 6, 4});
  const std::vector<KernelStats> expected = stats_of(simulated(sorted, 1));
  EXPECT_EQ(stats_of(simulated(shuffled, 1)), expected);
  EXPECT_EQ(stats_of(simulated(shuffled, 1, CtaIntake::Hold)), expected);
}

TEST(Batches, OutputOfOneStreamDoesNotDependOnTheBatching) {
  const std::string bytes = three_kernels(0);
  std::string whole = simulated(bytes, size_t(1) << 30);
  EXPECT_GT(whole.size(), bytes.size());  // the stats records were added
  EXPECT_EQ(simulated(bytes, 1), whole);
}

// Kernels of other streams overlap within a batch; a batch boundary waits
// for every kernel before it (pipe-sim(1), the timeline).
TEST(Batches, ABatchBoundaryIsADeviceWideSynchronisation) {
  const std::string bytes = three_kernels(1);
  auto whole = stats_of(simulated(bytes, size_t(1) << 30)), one_each = stats_of(simulated(bytes, 1));
  ASSERT_EQ(whole.size(), 3u);
  ASSERT_EQ(one_each.size(), 3u);
  EXPECT_EQ(whole[2].start_cycle, whole[1].start_cycle);  // launched beside the second
  EXPECT_EQ(one_each[2].start_cycle, one_each[1].start_cycle + one_each[1].cycles);
  EXPECT_EQ(one_each[1].start_cycle, whole[1].start_cycle);
}

TEST(Batches, RecordAboutACompleteKernelIsRefused) {
  const MiniKernel first = mini_kernel(1), second = mini_kernel(2);
  const std::string bytes = stream_bytes([&](stream::Writer& w) {
    write_kernel(w, first);
    w.write(second.info);
    w.write(first.ctas[0]);
  });
  for (size_t budget : {size_t(1), size_t(1) << 30}) {
    std::string error = sasskit::test::error_of([&] { read_batches(bytes, budget); });
    EXPECT_NE(error.find("a cta record for kernel 1 after a later kernel's"), std::string::npos) << error;
    EXPECT_EQ(error.rfind("test:", 0), 0u) << error;
  }
}

// Spilled CTAs are counted from their payloads without decoding them; one
// that cannot be is decoded, and refused as a held one is.
TEST(Batches, SpillingRefusesWhatHoldingRefuses) {
  const MiniKernel good = mini_kernel(1);
  MiniKernel no_warps = good, beyond_the_table = good;
  no_warps.ctas[1].warps.clear();
  beyond_the_table.ctas[1].warps[0].inst[1] = 7;  // written in full: it disagrees with the table
  for (const MiniKernel& bad : {no_warps, beyond_the_table}) {
    const std::string bytes = stream_bytes([&](stream::Writer& w) { write_kernel(w, bad); });
    const std::string held = sasskit::test::error_of([&] { read_batches(bytes, 1, CtaIntake::Hold); });
    EXPECT_NE(held, "");
    EXPECT_EQ(sasskit::test::error_of([&] { read_batches(bytes, 1); }), held);
  }
}

// Spilled CTAs are counted in groups on the run's threads; what each holds
// does not depend on how many.
TEST(Batches, SpilledCtasAreCountedAlikeOnAnyNumberOfThreads) {
  MiniKernel k = mini_kernel(1);
  k.info.grid = {64, 1, 1};
  k.ctas.clear();
  const auto& t = k.table.insts;
  for (uint32_t c = 0; c < 64; ++c) {  // CTAs of 1 to 4 adds a warp, so their counts differ
    std::vector<uint32_t> body{0};
    body.insert(body.end(), 1 + c % 4, 1);
    body.push_back(2);
    k.ctas.push_back(make_cta({make_warp(0, t, body), make_warp(1, t, {0, 2})}, c, 1));
  }
  const std::string bytes = stream_bytes([&](stream::Writer& w) { write_kernel(w, k); });
  auto summaries = [&](unsigned threads) {
    std::istringstream in(bytes);
    stream::Reader reader(in, "test");
    Collect collect;
    read_batches(reader, BatchOptions{.batch_bytes = 1, .threads = threads}, collect);
    std::vector<std::pair<uint64_t, UnitCounts>> out;
    for (const Workload& w : collect.batches)
      for (const KernelInput& kernel : w.kernels)
        for (size_t i = 0; i < kernel.spilled.size(); ++i)
          out.emplace_back(kernel.spilled.linear(i), kernel.spilled.units(i));
    return out;
  };
  const auto one = summaries(1);
  ASSERT_EQ(one.size(), 64u);
  EXPECT_NE(one[0].second, one[1].second);
  EXPECT_EQ(summaries(3), one);
}

// A CTA may use only the table entries announced before it, even where a
// later slice of the table would cover what it uses.
TEST(Batches, ACtaUsesOnlyTheTableEntriesAnnouncedBeforeIt) {
  MiniKernel k = mini_kernel(1);
  InstTable later;
  later.kernel_id = 1;
  later.first = k.table.insts.size();
  later.insts = {k.table.insts[1]};
  k.ctas[1].warps[0].inst[1] = 3;  // the later slice's entry
  const std::string bytes = stream_bytes([&](stream::Writer& w) {
    write_kernel(w, k);
    w.write(later);
  });
  const std::string held = sasskit::test::error_of([&] { read_batches(bytes, 1, CtaIntake::Hold); });
  EXPECT_NE(held.find("beyond the kernel's table of 3"), std::string::npos) << held;
  EXPECT_EQ(sasskit::test::error_of([&] { read_batches(bytes, 1); }), held);
}

// A CTA waiting to be counted is checked before a later record the stream
// layer refuses: the first error in the stream is the one reported.
TEST(Batches, TheFirstBadRecordIsTheOneReported) {
  MiniKernel k = mini_kernel(1);
  k.ctas[1].warps.clear();
  const CtaTrace outside_the_grid = make_cta(mini_kernel(1).ctas[0].warps, 5, 1);
  const std::string bytes = stream_bytes([&](stream::Writer& w) {
    write_kernel(w, k);
    w.write(outside_the_grid);
  });
  const std::string held = sasskit::test::error_of([&] { read_batches(bytes, size_t(1) << 30, CtaIntake::Hold); });
  EXPECT_NE(held.find("no warps"), std::string::npos) << held;
  EXPECT_EQ(sasskit::test::error_of([&] { read_batches(bytes, size_t(1) << 30); }), held);
}

TEST(Batches, StreamWithoutKernelsIsRefused) {
  const std::string bytes = stream_bytes([](stream::Writer&) {});
  std::string error = sasskit::test::error_of([&] { read_batches(bytes, 1); });
  EXPECT_NE(error.find("holds no kernel records"), std::string::npos) << error;
}

// rd-cache writes the cache record before the CTAs (format 1.3); a 1.2
// stream has it after them. pipe-sim reads the whole kernel before it
// simulates, so both give the same stats, whatever the kernel's size.
TEST(Batches, CacheRecordBeforeOrAfterTheCtasGivesTheSameStats) {
  const MiniKernel k = mini_kernel(1);
  KernelCacheModel cache;
  cache.kernel_id = 1;
  cache.l1_hit_rate = 1.0;  // every load hits: far from the defaults
  cache.l2_hit_rate = 1.0;
  auto stats_of = [&](bool cache_first) {
    const std::string bytes = stream_bytes([&](stream::Writer& w) {
      w.write(k.info);
      w.write(k.table);
      if (cache_first) w.write(cache);
      for (const auto& c : k.ctas) w.write(c);
      if (!cache_first) w.write(cache);
    });
    std::istringstream in(bytes);
    stream::Reader reader(in, "test");
    RunOptions opt;
    opt.sim.gpu = test_gpu();
    auto results = simulate_stream(reader, opt, StreamOutput{});
    EXPECT_EQ(results.at(0).stats.memory, "cache-record");
    return results.at(0).stats;
  };
  const KernelStats before = stats_of(true), after = stats_of(false);
  EXPECT_EQ(before.cycles, after.cycles);
  EXPECT_EQ(before.total.insts, after.total.insts);
  EXPECT_EQ(before.total.stall_type, after.total.stall_type);
}

// `cat a b | pipe-sim`: each member is simulated on its own GPU timeline
// and written as an output member of its own.
TEST(Batches, EachMemberOfAConcatenatedStreamIsSimulated) {
  const std::string one = stream_bytes([](stream::Writer& w) { write_kernel(w, mini_kernel(1)); });
  const std::string two = one + one;
  std::istringstream in(two);
  stream::Reader reader(in, "test");
  RunOptions opt;
  opt.sim.gpu = test_gpu();
  std::ostringstream out;
  const auto sink = stream_sink(out, "test", reader.header(), stream::Stage{"pipe-sim", "0", {}}, true);
  StreamOutput run;
  run.sink = sink.get();
  auto results = simulate_stream(reader, opt, run);
  sink->finish();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].stats.start_cycle, results[1].stats.start_cycle);
  EXPECT_EQ(results[0].stats.cycles, results[1].stats.cycles);
  std::istringstream back(out.str());
  stream::Reader again(back, "out");
  again.accept_members();
  size_t members = 0, stats = 0;
  do {
    ++members;
    for (stream::Record r; again.next(r);) stats += r.type() == stream::RecordType::Stats;
  } while (again.next_member());
  EXPECT_EQ(members, 2u);
  EXPECT_EQ(stats, 2u);
}
