#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <sstream>

#include "formats/cache_record.hpp"
#include "formats/cta_payload.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/records.hpp"
#include "formats/trace.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::stream;

namespace {

KernelInfo sample_kernel() {
  KernelInfo k;
  k.id = 3;
  k.name = "_Z6vecAddIfEvPT_S1_S1_i";
  k.grid = {4, 2, 1};
  k.block = {256, 1, 1};
  k.shmem = 1024;
  k.nregs = 32;
  k.binary_version = 70;
  k.stream_id = 7;
  k.shmem_base = 0x7f2b5a000000;
  k.local_base = 0x7f2b58000000;
  k.nvbit_version = "1.5.5";
  k.tracer_version = 4;
  k.lineinfo = true;
  k.trace_file = "kernel-3.traceg";
  k.comments = {"#traces format = PC mask ..."};
  return k;
}

InstTable sample_table() {
  InstTable t;
  t.kernel_id = 3;
  StaticInst add{0x10, std::nullopt, "IADD3", {1}, {2, 3, 255}, 0, std::nullopt};
  StaticInst ld{0x20, 12u, "LDG.E.128.SYS", {4}, {6}, 16, std::string("0x10")};
  t.insts = {add, ld};
  return t;
}

CtaTrace sample_cta() {
  CtaTrace c;
  c.kernel_id = 3;
  c.cta = {1, 0, 0};
  WarpTrace w;
  w.warp_id = 2;
  w.inst = {0, 1, 0, 1};
  w.mask = {0xffffffff, 0x3, 0x1, 0x0};
  w.addr_mode = {1, 1};
  w.addrs = {0x1000, 0x1010};
  w.addr_extra = {0x2000, 16};  // base and stride of the mask-0 access
  c.warps = {w};
  return c;
}

std::string write_stream(const std::function<void(Writer&)>& body) {
  std::ostringstream out;
  Writer w(out, "test", Header{}, Stage{"test", "0", {"test", "-x"}});
  body(w);
  w.finish();
  return out.str();
}

}  // namespace

TEST(Stream, RoundTripsEveryRecordType) {
  std::string bytes = write_stream([](Writer& w) {
    w.write(Memcpy{0x7000, 400});
    w.write(sample_kernel());
    w.write(sample_table());
    w.write(sample_cta());
  });
  std::istringstream in(bytes);
  Reader r(in, "s");
  ASSERT_EQ(r.header().provenance.size(), 1u);
  EXPECT_EQ(r.header().provenance[0].argv, (std::vector<std::string>{"test", "-x"}));
  Record rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(decode<Memcpy>(rec), (Memcpy{0x7000, 400}));
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(decode<KernelInfo>(rec), sample_kernel());
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(decode<InstTable>(rec), sample_table());
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.type(), RecordType::Cta);
  CtaTrace cta = decode<CtaTrace>(rec);
  EXPECT_EQ(cta, sample_cta());
  EXPECT_NO_THROW(validate_cta(cta, sample_table().insts, "x"));
  EXPECT_FALSE(r.next(rec));
}

// trace-unpack -j packs cta records apart from the writer and writes them
// after: the bytes, end record included, are write(CtaTrace)'s, in the
// compact form and in the expanded one (a CTA the table does not take).
TEST(Stream, CtaRecordsPackedApartAreTheBytesWriteWrites) {
  CtaTrace expanded = sample_cta();
  expanded.warps[0].inst = {0, 7, 0, 1};  // 7 is beyond the table
  auto start = [](Writer& w) {
    w.write(sample_kernel());
    w.write(sample_table());
  };
  const std::string written = write_stream([&](Writer& w) {
    start(w);
    w.write(sample_cta());
    w.write(expanded);
    w.write(sample_cta());
  });
  const std::string packed = write_stream([&](Writer& w) {
    start(w);
    PayloadEncoder one, two;
    msgpack::sbuffer first, second;
    w.pack_cta(sample_cta(), first, one);
    w.pack_cta(expanded, first, one);
    w.pack_cta(sample_cta(), second, two);
    w.write_packed_ctas(first, 2);
    w.write_packed_ctas(second, 1);
    w.write_packed_ctas(msgpack::sbuffer(), 0);
  });
  EXPECT_EQ(packed, written);
}

TEST(Stream, ReadsRecordsLargerThanTheReadChunkUpToTheLastByte) {
  CtaTrace big = sample_cta();
  big.warps[0].inst.assign(60000, 0);
  big.warps[0].mask.assign(60000, 0xffffffffu);
  big.warps[0].addr_mode.clear();
  big.warps[0].addrs.clear();
  std::string bytes = write_stream([&](Writer& w) { w.write(big); });
  ASSERT_GT(bytes.size(), 3u << 16);
  std::istringstream in(bytes);
  Reader r(in, "s");
  Record rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(decode<CtaTrace>(rec), big);
  EXPECT_FALSE(r.next(rec));
}

TEST(Stream, PassesUnknownRecordsThroughByteForByte) {
  msgpack::sbuffer custom;
  Packer pk(custom);
  pk.pack_map(2);
  pk.pack(std::string("t"));
  pk.pack(std::string("future"));
  pk.pack(std::string("payload"));
  pk.pack(std::vector<int>{1, -2, 3});
  std::string first = write_stream([&](Writer& w) {
    w.write(sample_kernel());
    w.write(Record(std::string(custom.data(), custom.size()), "x"));
  });
  std::istringstream in(first);
  Reader r(in, "s");
  std::string second = write_stream([&](Writer& w) {
    Record rec;
    while (r.next(rec)) w.write(rec);
  });
  EXPECT_NE(second.find(std::string(custom.data(), custom.size())), std::string::npos);
  std::istringstream in2(second);
  Reader r2(in2, "s2");
  Record rec;
  ASSERT_TRUE(r2.next(rec));
  EXPECT_EQ(rec.type(), RecordType::Kernel);
  ASSERT_TRUE(r2.next(rec));
  EXPECT_EQ(rec.type(), RecordType::Other);  // unknown: kept under its own name
  EXPECT_EQ(rec.type_name(), "future");
  EXPECT_FALSE(r2.next(rec));
}

TEST(Stream, ProvenanceChainGrowsByOneStagePerTool) {
  std::string first = write_stream([](Writer&) {});
  std::istringstream in(first);
  Reader r(in, "s");
  std::ostringstream out;
  Writer w(out, "o", r.header(), Stage{"second", "1", {}});
  w.finish();
  std::istringstream in2(out.str());
  Reader r2(in2, "s2");
  ASSERT_EQ(r2.header().provenance.size(), 2u);
  EXPECT_EQ(r2.header().provenance[1].tool, "second");
}

TEST(Stream, AStageRecordsItsOptionsAndModelFingerprint) {
  const Stage pipe_sim{"pipe-sim", "1", {"pipe-sim", "-j4"}, "QV100", "0123456789abcdef",
                       StageOptions{{"pkp", "true"}, {"pkp-s", "0.1"}}};
  const Stage plain{"trace-unpack", "1", {}, "", "", StageOptions{}};
  const Stage older{"rd-cache", "1", {"rd-cache"}, "QV100"};  // 2.2: neither key
  std::ostringstream out;
  Header upstream;
  upstream.provenance = {plain, older};
  Writer w(out, "o", upstream, pipe_sim);
  w.finish();
  std::istringstream in(out.str());
  Reader r(in, "s");
  EXPECT_EQ(r.header().minor, kMinor);
  EXPECT_EQ(r.header().provenance, (std::vector<Stage>{plain, older, pipe_sim}));
  EXPECT_FALSE(r.header().provenance[1].options.has_value());  // not recorded, not empty
}

TEST(Stream, ThisStageRecordsTheEffectiveOptionsEvenWithoutProvenance) {
  const Stage s = this_stage("trace-unpack", {"trace-unpack", "x"}, true, {{"ctas", "0-3"}});
  EXPECT_TRUE(s.argv.empty());
  EXPECT_EQ(s.options, (StageOptions{{"ctas", "0-3"}}));
  EXPECT_TRUE(s.gpu.empty());
  EXPECT_TRUE(s.gpu_fingerprint.empty());
}

TEST(Stream, ThisStageRecordsTheModelItIsGiven) {
  const ModelInUse model{"QV100", "0123456789abcdef", {{"l2-size", "4MiB"}}, {"l2-size"}};
  const Stage s = this_stage("pipe-sim", {"pipe-sim", "in"}, false, {{"pkp", "true"}}, &model);
  EXPECT_EQ(s.argv, (std::vector<std::string>{"pipe-sim", "in"}));
  EXPECT_EQ(s.gpu, "QV100");
  EXPECT_EQ(s.gpu_fingerprint, "0123456789abcdef");
  EXPECT_EQ(s.options, (StageOptions{{"l2-size", "4MiB"}, {"pkp", "true"}}));
}

namespace {
std::string header_with_version(uint32_t major, uint32_t minor) {
  msgpack::sbuffer b;
  Packer pk(b);
  pk.pack_map(4);
  pk.pack(std::string("magic"));
  pk.pack(std::string(kMagic));
  pk.pack(std::string("major"));
  pk.pack(major);
  pk.pack(std::string("minor"));
  pk.pack(minor);
  pk.pack(std::string("provenance"));
  pk.pack_array(0);
  pk.pack_map(2);
  pk.pack(std::string("t"));
  pk.pack(std::string("end"));
  pk.pack(std::string("counts"));
  pk.pack_map(0);
  return std::string(b.data(), b.size());
}

std::string error_of(const std::string& bytes) {
  try {
    std::istringstream in(bytes);
    Reader r(in, "s");
    Record rec;
    while (r.next(rec)) {
    }
  } catch (const Error& e) {
    return e.where() + ": " + e.what();
  }
  return "";
}
}  // namespace

TEST(Stream, RefusesUnknownMajorVersionAcceptsHigherMinor) {
  EXPECT_NE(error_of(header_with_version(kMajor + 1, 0)).find("version 4.0 is not supported"),
            std::string::npos);
  EXPECT_EQ(error_of(header_with_version(kMajor, kMinor + 5)), "");
  EXPECT_EQ(error_of(header_with_version(2, 7)), "");  // 2.x is still read
  EXPECT_EQ(error_of(header_with_version(1, 2)), "");  // 1.x is still read
}

TEST(Stream, ReportsTruncationAndWrongMagic) {
  std::string bytes = write_stream([](Writer& w) { w.write(sample_cta()); });
  for (size_t cut : {bytes.size() - 1, bytes.size() - 20, size_t(10)})
    EXPECT_NE(error_of(bytes.substr(0, cut)).find("truncated"), std::string::npos) << cut;
  EXPECT_NE(error_of("hello world").find("not a sasskit stream"), std::string::npos);
  EXPECT_NE(error_of("").find("empty input"), std::string::npos);
}

TEST(Stream, ForgedLengthIsTruncationNotAllocation) {
  std::string bytes = header_with_version(kMajor, kMinor);
  std::string head = bytes.substr(0, bytes.size() - 15);  // header only
  // An array header claiming 2^32-1 elements, followed by nothing.
  std::string forged = head + std::string("\xdd\xff\xff\xff\xff", 5);
  EXPECT_NE(error_of(forged).find("truncated"), std::string::npos);
  std::string forged_bin = head + std::string("\xc6\x7f\xff\xff\xff", 5) + "abc";
  EXPECT_NE(error_of(forged_bin).find("truncated"), std::string::npos);
}

TEST(Stream, DetectsCountMismatch) {
  // Splice a kernel record from another stream in front of the end record.
  std::string one = write_stream([](Writer& w) { w.write(sample_kernel()); });
  std::string none = write_stream([](Writer&) {});
  std::string kernel_bytes;
  {
    std::istringstream in(one);
    Reader r(in, "s");
    Record rec;
    r.next(rec);
    kernel_bytes = rec.bytes();
  }
  size_t header_len = none.size() - 15;  // the end record {t:end, counts:{}} is 15 bytes
  std::string spliced = none.substr(0, header_len) + kernel_bytes + none.substr(header_len);
  EXPECT_NE(error_of(spliced).find("record counts do not match"), std::string::npos);
}

TEST(Stream, ValidateCtaRejectsInconsistentColumns) {
  CtaTrace c = sample_cta();
  c.warps[0].addrs.pop_back();
  EXPECT_THROW(validate_cta(c, sample_table().insts, "x"), Error);
  c = sample_cta();
  c.warps[0].inst[0] = 9;
  EXPECT_THROW(validate_cta(c, sample_table().insts, "x"), Error);
  c = sample_cta();
  c.warps[0].addr_extra.pop_back();  // the mask-0 base+stride access keeps two values
  EXPECT_THROW(validate_cta(c, sample_table().insts, "x"), Error);
}

namespace {
KernelCacheModel cache_with_writebacks(uint64_t l2_sectors, uint64_t written_back) {
  KernelCacheModel c;
  c.kernel_id = 1;
  c.pc = {0x40};
  c.amat = {300};
  c.pc_l1_hit_rate = {0};
  c.pc_l2_hit_rate = {0.5};
  c.pc_requests = {8};
  c.pc_sectors = {32};
  c.pc_l2_sectors = {l2_sectors};
  c.pc_writeback_sectors = {written_back};
  c.dram_read_sectors = 16;
  c.dram_write_sectors = written_back;
  c.dram_sectors = 16 + written_back;
  return c;
}
KernelCacheModel read_back(const KernelCacheModel& c) {
  std::string bytes = write_stream([&](Writer& w) { w.write(c); });
  std::istringstream in(bytes);
  Reader r(in, "s");
  Record rec;
  EXPECT_TRUE(r.next(rec));
  return decode<KernelCacheModel>(rec);
}
}  // namespace

TEST(Stream, CacheRecordCarriesDramReadsWritesAndWriteBacks) {
  const KernelCacheModel c = cache_with_writebacks(32, 24);
  EXPECT_EQ(read_back(c), c);
}

TEST(Stream, CacheRecordSplitsItsL2SectorsIntoWritesSince2_5) {
  KernelCacheModel c = cache_with_writebacks(32, 24);
  c.l2_bound_sectors = 40;
  EXPECT_FALSE(read_back(c).l2_bound_write_sectors);  // a record that does not split them
  c.l2_bound_write_sectors = 8;
  EXPECT_EQ(read_back(c), c);
  c.l2_bound_write_sectors = 41;
  try {
    read_back(c);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'l2_bound_write_sectors' is more than 'l2_bound_sectors'"),
              std::string::npos)
        << e.what();
  }
}

TEST(Stream, CacheRecordSaysHowManyCtasItModelsSince2_6) {
  KernelCacheModel c = cache_with_writebacks(32, 24);
  EXPECT_FALSE(read_back(c).ctas);  // a record before 2.6
  c.ctas = 65536;
  EXPECT_EQ(read_back(c), c);
}

// A 2.x cache record carries rd-cache's queueing estimates, noc_queue and
// dram_queue (removed in 3.0): a reader ignores them.
TEST(Stream, Reads2xCacheRecordWithItsQueueKeys) {
  const KernelCacheModel c = cache_with_writebacks(32, 24);
  const std::string now = write_stream([&](Writer& w) { w.write(c); });
  std::string record;
  {
    std::istringstream in(now);
    Reader r(in, "s");
    Record rec;
    ASSERT_TRUE(r.next(rec));
    const msgpack::object_handle h = msgpack::unpack(rec.bytes().data(), rec.bytes().size());
    auto keys = h.get().as<std::map<std::string, msgpack::object>>();
    keys["noc_queue"] = msgpack::object(12.5);
    keys["dram_queue"] = msgpack::object(3.0);
    msgpack::sbuffer b;
    msgpack::pack(b, keys);
    record.assign(b.data(), b.size());
  }
  std::string head = header_with_version(2, 7);
  head.resize(head.size() - 15);  // the end record {t:end, counts:{}}
  msgpack::sbuffer end;
  Packer pk(end);
  pack_map_of(pk, [](auto& map) {
    map.type(RecordType::End);
    map("counts", std::map<std::string, uint64_t>{{"cache", 1}});
  });
  std::istringstream in(head + record + std::string(end.data(), end.size()));
  Reader r(in, "s");
  Record rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(r.header().major, 2u);
  EXPECT_EQ(decode<KernelCacheModel>(rec), c);
  EXPECT_FALSE(r.next(rec));
}

TEST(Stream, CacheRecordWithMoreWriteBacksThanItsAccessesCanEvictIsRefused) {
  // Each L2 sector looked up evicts at most one line: 32 sectors cannot write back 2^40.
  try {
    read_back(cache_with_writebacks(32, uint64_t{1} << 40));
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than its 32 L2 sectors can evict"), std::string::npos) << e.what();
  }
}

TEST(Trace, ActiveLanesCountsTheMaskBits) {
  std::mt19937 rng(7);
  std::vector<uint32_t> masks = {0, 1, 0x80000000u, 0xffffffffu, 0x7fffffffu, 0x55555555u};
  for (int i = 0; i < 1000; ++i) masks.push_back(static_cast<uint32_t>(rng()));
  for (uint32_t m : masks) EXPECT_EQ(active_lanes(m), static_cast<unsigned>(std::popcount(m))) << m;
}

TEST(RecordCounts, CountsRunsOfATypeAndCopiesApart) {
  stream::RecordCounts a;
  a.add("cta");
  a.add("cta", 3);
  a.add("insts");
  a.add("cta");
  stream::RecordCounts b = a;
  b.add("cta");
  a.add("kernel");
  EXPECT_EQ(a.by_type(), (std::map<std::string, uint64_t>{{"cta", 5}, {"insts", 1}, {"kernel", 1}}));
  EXPECT_EQ(b.by_type(), (std::map<std::string, uint64_t>{{"cta", 6}, {"insts", 1}}));
  EXPECT_EQ(b.of("memcpy"), 0u);
  b = a;
  b.add("insts");
  EXPECT_EQ(a.of("insts"), 1u);
  EXPECT_EQ(b.of("insts"), 2u);
}
