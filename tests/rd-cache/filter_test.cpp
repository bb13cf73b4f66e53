#include "rd_cache.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/volta_like_gpu.hpp"

using namespace sasskit;
using namespace sasskit::rdcache;

namespace {

GpuConfig gpu_model() {
  GpuConfig g = sasskit::test::volta_like_gpu("test", 8);
  g.smem_per_cta = 48 * 1024;
  g.l1d.size_bytes = 4096;
  g.l1d.assoc = 4;
  g.l2.size_bytes = 65536;
  g.l2.assoc = 16;
  g.l2.write_allocate = true;
  return g;
}

// Keeps what reaches it.
class Capture : public Sink {
 public:
  void record(const stream::Record& r) override { types.push_back(r.type_name()); }
  void result(const KernelCacheResult& r) override {
    types.push_back("cache");
    models.push_back(r.model);
  }
  void finish() override { types.push_back("finish"); }
  std::vector<std::string> types;
  std::vector<KernelCacheModel> models;
};

KernelInfo kernel(uint32_t id, uint32_t ctas) {
  KernelInfo k;
  k.id = id;
  k.grid = {ctas, 1, 1};
  k.block = {32, 1, 1};
  k.nregs = 16;
  k.binary_version = 70;
  return k;
}

CtaTrace cta(uint32_t kernel_id, uint32_t x) {
  CtaTrace c;
  c.kernel_id = kernel_id;
  c.cta = {x, 0, 0};
  WarpTrace w;
  w.inst = {0};
  w.mask = {0xffffffff};
  w.addr_mode = {1};
  for (uint64_t lane = 0; lane < 32; ++lane) w.addrs.push_back(0x1000 + 128 * x + 4 * lane);
  c.warps = {w};
  return c;
}

Capture run(const std::function<void(stream::Writer&)>& body, const Options& options = {}) {
  std::ostringstream bytes;
  stream::Writer w(bytes, "test", stream::Header{}, stream::Stage{"test", "0", {}});
  body(w);
  w.finish();
  std::istringstream in(bytes.str());
  stream::Reader reader(in, "test");
  Capture capture;
  run_filter(reader, capture, gpu_model(), options);
  return capture;
}

void kernel_records(stream::Writer& w, uint32_t id, uint32_t ctas, uint64_t stream_id = 0) {
  KernelInfo k = kernel(id, ctas);
  k.stream_id = stream_id;
  w.write(k);
  StaticInst ld;
  ld.pc = 0x40;
  ld.opcode = "LDG.E.SYS";
  ld.mem_width = 4;
  w.write(InstTable{id, 0, {ld}});
}

}  // namespace

TEST(Filter, UsesTheSchedRecordForCtaPlacement) {
  const Capture c = run([](stream::Writer& w) {
    kernel_records(w, 1, 2);
    KernelSchedule s;
    s.kernel_id = 1;
    s.policy = "replay:test";
    s.sm = {5, 2};
    s.start = {0, 0};
    w.write(s);
    w.write(cta(1, 0));
    w.write(cta(1, 1));
  });
  ASSERT_EQ(c.models.size(), 1u);
  EXPECT_EQ(c.models[0].sm, (std::vector<uint32_t>{2, 5}));
}

TEST(Filter, ModelsTheScheduleWithoutASchedRecord) {
  const Capture c = run([](stream::Writer& w) {
    kernel_records(w, 1, 3);
    for (uint32_t x = 0; x < 3; ++x) w.write(cta(1, x));
  });
  ASSERT_EQ(c.models.size(), 1u);
  EXPECT_EQ(c.models[0].sm.size(), 3u);  // round-robin: one CTA per SM
  EXPECT_EQ(c.models[0].gmem_requests, 3u);
}

// Without a sched record the CTAs a stream holds are placed by their rank
// in grid order, whether they come in that order or not.
TEST(Filter, PlacesTheCtasHeldByRankInGridOrderInAnyOrder) {
  for (const std::vector<uint32_t>& order : {std::vector<uint32_t>{1, 4, 9, 12}, {12, 1, 9, 4}}) {
    const Capture c = run([&](stream::Writer& w) {
      kernel_records(w, 1, 16);
      for (uint32_t x : order) w.write(cta(1, x));
    });
    ASSERT_EQ(c.models.size(), 1u);
    EXPECT_EQ(c.models[0].sm, (std::vector<uint32_t>{0, 1, 2, 3})) << "four ranks on four SMs, round-robin";
    EXPECT_EQ(c.models[0].gmem_requests, 4u);
  }
}

TEST(Filter, CacheRecordPrecedesItsKernelsCtasAndTheNextCopy) {
  const Capture c = run([](stream::Writer& w) {
    kernel_records(w, 1, 2);
    w.write(cta(1, 0));
    w.write(InstTable{1, 1, {}});  // after the first cta: waits with the CTAs
    w.write(cta(1, 1));
    w.write(Memcpy{0x1000, 128});
    kernel_records(w, 2, 1);
    w.write(cta(2, 0));
  });
  EXPECT_EQ(c.types, (std::vector<std::string>{"kernel", "insts", "cache", "cta", "insts", "cta", "memcpy",
                                                "kernel", "insts", "cache", "cta", "finish"}));
  ASSERT_EQ(c.models.size(), 2u);
  EXPECT_EQ(c.models[0].l2_hits, 0u);
  EXPECT_EQ(c.models[1].l2_hits, 4u);  // the copy filled L2
}

TEST(Filter, CtaBeforeItsKernelIsBadInput) {
  EXPECT_THROW(run([](stream::Writer& w) { w.write(cta(1, 0)); }), Error);
}

namespace {
// Kernel `id` on stream `stream_id`, 8 CTAs (one per SM), CTA x loading
// line x.
void eight_ctas(stream::Writer& w, uint32_t id, uint64_t stream_id) {
  kernel_records(w, id, 8, stream_id);
  for (uint32_t x = 0; x < 8; ++x) w.write(cta(id, x));
}

// Kernels 1 and 2 on streams 0 and 1: kernel 2's CTAs share the SMs with
// kernel 1's.
void two_streams(stream::Writer& w) {
  eight_ctas(w, 1, 0);
  eight_ctas(w, 2, 1);
}

// The record types `kernels` kernels of eight_ctas give, then "finish".
std::vector<std::string> types_of(int kernels) {
  std::vector<std::string> types;
  for (int k = 0; k < kernels; ++k) {
    for (const char* t : {"kernel", "insts", "cache"}) types.push_back(t);
    types.insert(types.end(), 8, "cta");
  }
  types.push_back("finish");
  return types;
}
}  // namespace

TEST(Filter, KernelsSharingSmsShareTheirL1sAndKeepTheirRecordsInOrder) {
  const Capture c = run(two_streams);
  EXPECT_EQ(c.types, types_of(2));
  ASSERT_EQ(c.models.size(), 2u);
  EXPECT_EQ(c.models[0].sm, c.models[1].sm);  // CTA x of each on SM x
  EXPECT_EQ(c.models[0].l1_hits, 0u);
  EXPECT_EQ(c.models[1].l1_hits, 8u * 4);  // kernel 1's CTA loaded the line just before
  // One kernel at a time: each finds its L1 empty.
  Options serial;
  serial.serial_kernels = true;
  const Capture s = run(two_streams, serial);
  EXPECT_EQ(s.types, types_of(2));
  ASSERT_EQ(s.models.size(), 2u);
  EXPECT_EQ(s.models[1].l1_hits, 0u);
  EXPECT_EQ(s.models[1].l2_hits, 8u * 4);
}

TEST(Filter, AtMost32KernelsAreModeledTogether) {
  // 40 kernels, each on a stream of its own: all launch at once and share
  // the SMs. The set is cut after 32, and every kernel keeps its records in
  // order with its cache record ahead of its CTAs. The last 8 start on an
  // empty L1: some of their loads miss, where one set would hit in all.
  const Capture c = run([](stream::Writer& w) {
    for (uint32_t id = 1; id <= 40; ++id) eight_ctas(w, id, id - 1);
  });
  EXPECT_EQ(c.types, types_of(40));
  ASSERT_EQ(c.models.size(), 40u);
  uint64_t last_hits = 0;
  for (size_t k = 32; k < 40; ++k) last_hits += c.models[k].l1_hits;
  EXPECT_LT(last_hits, 8u * 8 * 4);
}
