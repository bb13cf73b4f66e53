// The archive round trip: whatever goes in comes back equal (CtaTrace
// equality, address modes included), with every codec and block size.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "archive_fixture.hpp"
#include "formats/accelsim.hpp"
#include "formats/archive_source.hpp"
#include "formats/trace_source.hpp"
#include "libcommon/diag.hpp"
#include "test_traces.hpp"

using namespace sasskit;
using namespace sasskit::testing;

namespace {

std::vector<TraceItem> mixed_trace() {
  GenOptions regular;
  regular.random_modes = false;
  GenOptions odd;
  odd.id = 2;
  odd.grid = {3, 1, 2};
  odd.warps = 3;
  odd.seed = 7;
  GenOptions big;
  big.id = 3;
  big.grid = {8, 4, 1};
  big.warps = 8;
  big.iterations = 6;
  return {Memcpy{0x7f0000000000, 4096}, generate_kernel(regular), Memcpy{0x10, 1},
          generate_kernel(odd), generate_kernel(big)};
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void expect_round_trip(const std::vector<TraceItem>& items, archive::WriterOptions options) {
  std::string path = temp_path("rt");
  write_archive(path, items, options);
  EXPECT_EQ(read_archive_file(path), items);
}

}  // namespace

TEST(Archive, RoundTripsWithEveryCodec) {
  auto items = mixed_trace();
  for (auto codec : {archive::Codec::None, archive::Codec::Zlib, archive::Codec::Xz}) {
    archive::WriterOptions o;
    o.codec = codec;
    expect_round_trip(items, o);
  }
}

TEST(Archive, RoundTripsWithOneCtaPerBlockAndNoDictionary) {
  archive::WriterOptions o;
  o.block_bytes = 1;
  o.dict_bytes = 0;
  expect_round_trip(mixed_trace(), o);
}

TEST(Archive, RoundTripsWithADictionaryThatFillsUp) {
  archive::WriterOptions o;
  o.dict_bytes = 2000;  // a few sequences, then the cap
  expect_round_trip(mixed_trace(), o);
}

TEST(Archive, RoundTripsManySeeds) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    GenOptions g;
    g.seed = seed;
    g.grid = {uint32_t(1 + seed % 5), uint32_t(1 + seed % 3), 1};
    g.warps = uint32_t(1 + seed % 6);
    g.iterations = uint32_t(seed % 4);
    archive::WriterOptions o;
    o.block_bytes = uint32_t(64 << (seed % 8));
    expect_round_trip({generate_kernel(g)}, o);
  }
}

TEST(Archive, KeepsOddCtasAndEmptyKernels) {
  KernelTrace k = generate_kernel(GenOptions{});
  // CTAs out of order, a CTA naming another kernel id, empty warps, a gap in warp ids.
  std::swap(k.ctas[0], k.ctas[5]);
  k.ctas[1].kernel_id = 99;
  k.ctas[2].warps[1] = WarpTrace{};
  k.ctas[2].warps[1].warp_id = 40;
  k.ctas[3].warps.clear();
  KernelTrace empty;
  empty.info.id = 4;
  std::vector<TraceItem> items{k, empty, Memcpy{1, 2}};
  expect_round_trip(items, {});
  expect_round_trip({}, {});
}

TEST(Archive, ExtremeAddressesAndStrides) {
  KernelTrace k;
  k.info.id = 5;
  k.info.grid = {2, 1, 1};
  k.table = {StaticInst{0x0, std::nullopt, "LDG.E", {1}, {2}, 4, std::nullopt}};
  const std::vector<std::vector<uint64_t>> lanes = {
      {0, ~uint64_t(0)},                   // largest delta both ways
      {~uint64_t(0), 0},
      {1ull << 63, 0, 1ull << 63},         // alternating sign
      {100, 90, 80, 70},                   // negative stride
      {5, 5, 5},                           // stride 0
      {0x12345678, 0x12345678 + 3, 7},     // no rule, odd deltas
  };
  for (uint32_t x = 0; x < 2; ++x) {
    CtaTrace c;
    c.kernel_id = 5;
    c.cta = {x, 0, 0};
    for (uint32_t wi = 0; wi < lanes.size(); ++wi) {
      WarpTrace w;
      w.warp_id = wi;
      for (uint32_t rep = 0; rep < 3; ++rep) {
        w.inst.push_back(0);
        w.mask.push_back((1u << lanes[wi].size()) - 1);
        w.addr_mode.push_back(uint8_t(rep));
        for (uint64_t a : lanes[wi]) w.addrs.push_back(a + rep * x);
      }
      c.warps.push_back(w);
    }
    k.ctas.push_back(c);
  }
  expect_round_trip({k}, {});
}

TEST(Archive, OutputIsDeterministic) {
  std::string a = temp_path("det"), b = temp_path("det");
  write_archive(a, mixed_trace());
  write_archive(b, mixed_trace());
  EXPECT_EQ(file_bytes(a), file_bytes(b));
}

TEST(Archive, RegularAddressesCostAlmostNothing) {
  // 2048 warps of affine loads: the rules predict every address, so the
  // archive must be far smaller than one with a random gather in the loop.
  GenOptions g;
  g.grid = {16, 16, 1};
  g.warps = 8;
  g.iterations = 4;
  g.random_modes = false;
  KernelTrace k = generate_kernel(g);
  KernelTrace regular = k;
  for (CtaTrace& c : regular.ctas)
    for (WarpTrace& w : c.warps) {
      size_t lane = 0, mem = 0;
      for (size_t i = 0; i < w.inst.size(); ++i) {
        if (k.table[w.inst[i]].mem_width == 0) continue;
        unsigned n = active_lanes(w.mask[i]);
        if (w.inst[i] == 5)  // the gather: make it affine too
          for (unsigned j = 0; j < n; ++j) w.addrs[lane + j] = 0x5000 + c.cta.x * 64 + j * 16;
        lane += n;
        ++mem;
      }
    }
  std::string a = temp_path("reg"), b = temp_path("irr");
  write_archive(a, {regular});
  write_archive(b, {k});
  auto regular_size = std::filesystem::file_size(a), random_size = std::filesystem::file_size(b);
  // 2048 warps x 4 iterations x ~31 random lanes of 64 or 22 bits: ~1.4 MB of entropy.
  EXPECT_GT(random_size, 1'300'000u);
  EXPECT_LT(regular_size, 8'000u) << "random: " << random_size;
}

TEST(Archive, ReadsOneKernelThroughTheIndex) {
  std::string path = temp_path("idx");
  auto items = mixed_trace();
  write_archive(path, items);
  archive::ArchiveReader r(path);
  ASSERT_EQ(r.entries().size(), 5u);
  const archive::KernelEntry* k = r.find_kernel(2);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->ctas, 6u);
  EXPECT_EQ(r.find_kernel(42), nullptr);
  std::vector<CtaTrace> ctas;
  r.read_kernel(*k, accelsim::KernelSink{nullptr, nullptr, [&](const CtaTrace& c) { ctas.push_back(c); }});
  EXPECT_EQ(ctas, std::get<KernelTrace>(items[3]).ctas);
}

// Blocks decompressed several at a time give the CTAs one at a time gives,
// in order, whatever the group's size against the blocks' count.
TEST(Archive, ReadsTheSameCtasWithBlocksDecompressedOnThreads) {
  std::string path = temp_path("threads");
  auto items = mixed_trace();
  write_archive(path, items, {.codec = archive::Codec::Zlib, .block_bytes = 512});
  archive::ArchiveReader r(path);
  const archive::KernelEntry* k = r.find_kernel(3);
  ASSERT_NE(k, nullptr);
  for (unsigned threads : {1u, 2u, 3u, 64u}) {
    std::vector<CtaTrace> ctas;
    r.read_kernel(*k, accelsim::KernelSink{nullptr, nullptr, [&](const CtaTrace& c) { ctas.push_back(c); }}, threads);
    EXPECT_EQ(ctas, std::get<KernelTrace>(items[4]).ctas) << threads << " threads";
  }
}

namespace {
struct Collect : TraceHandler {
  std::vector<uint32_t> kernels;
  std::vector<Memcpy> copies;
  size_t ctas = 0;
  void memcpy(const Memcpy& m) override { copies.push_back(m); }
  void kernel(const KernelInfo& k) override { kernels.push_back(k.id); }
  void insts(const InstTable&) override {}
  void cta(const CtaTrace&) override { ++ctas; }
};
}  // namespace

TEST(Archive, FeedsSelectedKernelsToATraceHandler) {
  std::string path = temp_path("src");
  write_archive(path, mixed_trace());
  Collect c;
  KernelSelector ids({.ids = "1,3"});
  archive::read_archive(path, ids, c);
  EXPECT_EQ(c.kernels, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(c.copies.size(), 2u);
  EXPECT_EQ(c.ctas, 8u + 32u);
}

TEST(Archive, WriterRefusesInconsistentInput) {
  std::ostringstream out;
  archive::ArchiveWriter w(out, "x");
  KernelTrace k = generate_kernel(GenOptions{});
  EXPECT_THROW(w.cta(k.ctas[0]), Error);  // before any kernel
  w.kernel(k.info);
  EXPECT_THROW(w.insts(InstTable{k.info.id, 3, k.table}), Error);  // gap
  w.insts(InstTable{k.info.id, 0, {k.table.begin(), k.table.begin() + 3}});
  try {
    w.cta(k.ctas[0]);  // uses entries not announced yet
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    EXPECT_NE(std::string(e.what()).find("beyond the kernel's table"), std::string::npos) << e.what();
  }
}

TEST(Archive, RoundTripsRealTraces) {
  namespace fs = std::filesystem;
  fs::path data = fs::path(SASSKIT_SHARED_DATA) / "traces";
  if (!fs::is_directory(data)) GTEST_SKIP() << "needs ../shared/data";
  for (const char* name : {"vectoradd-sm61", "wmma-sm70"}) {
    struct Gather : TraceHandler {
      std::vector<TraceItem> items;
      void memcpy(const Memcpy& m) override { items.emplace_back(m); }
      void kernel(const KernelInfo& k) override { items.emplace_back(KernelTrace{k, {}, {}}); }
      KernelTrace& cur() { return std::get<KernelTrace>(items.back()); }
      void insts(const InstTable& t) override { cur().table.insert(cur().table.end(), t.insts.begin(), t.insts.end()); }
      void cta(const CtaTrace& c) override { cur().ctas.push_back(c); }
    } g;
    KernelSelector every_kernel;
    read_accelsim((data / name).string(), every_kernel, g);
    ASSERT_FALSE(g.items.empty()) << name;
    expect_round_trip(g.items, {});
  }
}
