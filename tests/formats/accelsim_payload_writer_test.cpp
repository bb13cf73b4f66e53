// KernelTraceWriter::cta(Dim3, payload), which writes a stream cta record's
// compact payload without decoding it, against cta(CtaTrace): the same text,
// and a refusal (nothing written) wherever the CtaTrace path could refuse.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <sstream>

#include "formats/accelsim.hpp"
#include "formats/cta_payload.hpp"
#include "formats/records.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;

namespace {

// Entry 0: an ALU instruction; 1: a 4-byte load; 2: an 8-byte store.
std::vector<StaticInst> table(bool extras) {
  std::vector<StaticInst> t{StaticInst{0x00, std::nullopt, "IADD3", {1}, {2, 3}, 0, std::nullopt},
                            StaticInst{0x10, std::nullopt, "LDG.E", {4}, {2}, 4, std::nullopt},
                            StaticInst{0x20, std::nullopt, "STG.E.64", {}, {2, 4}, 8, std::nullopt}};
  if (extras)
    for (auto& inst : t) {
      inst.line = 17 + static_cast<uint32_t>(inst.pc);
      inst.imm = "0x1f";
    }
  return t;
}

// Tracer version 5 with lineinfo: every line has a line number and an immediate.
KernelInfo kernel(bool extras) {
  KernelInfo k;
  k.id = 2;
  k.name = "k";
  k.grid = {4, 2, 1};
  k.block = {128, 1, 1};
  k.tracer_version = extras ? 5 : 4;
  k.lineinfo = extras;
  return k;
}

struct WarpBuilder {
  WarpTrace w;
  void alu(uint32_t mask) {
    w.inst.push_back(0);
    w.mask.push_back(mask);
  }
  void mem(uint32_t inst, uint32_t mask, uint8_t mode, const std::vector<uint64_t>& addrs,
           const std::vector<uint64_t>& extra = {}) {
    w.inst.push_back(inst);
    w.mask.push_back(mask);
    w.addr_mode.push_back(mode);
    w.addrs.insert(w.addrs.end(), addrs.begin(), addrs.end());
    w.addr_extra.insert(w.addr_extra.end(), extra.begin(), extra.end());
  }
};

std::vector<uint64_t> stepping(uint64_t base, int64_t step, unsigned lanes) {
  std::vector<uint64_t> a;
  for (unsigned j = 0; j < lanes; ++j) a.push_back(base + uint64_t(step) * j);
  return a;
}

// Every address shape the writer formats, in every mode that can write it.
CtaTrace varied_cta() {
  std::mt19937_64 rng(35);
  CtaTrace c;
  c.kernel_id = 2;
  c.cta = {3, 1, 0};
  for (uint32_t warp = 0; warp < 3; ++warp) {
    WarpBuilder b;
    b.w.warp_id = warp * 2;
    for (int loop = 0; loop < 2; ++loop) {
      b.alu(0xffffffff);
      b.mem(1, 0xffffffff, 1, stepping(0x7f0000001000 + 0x80 * loop, 4, 32));    // affine, rising
      b.mem(2, 0xffffffff, 1, stepping(0x7f0000009000, -8, 32));                 // falling
      b.mem(1, 0xffffffff, 0, stepping(0x1000 + warp, 4, 32));                   // 32-bit, listed
      b.mem(1, 0xffffffff, 2, stepping(0xfffffffffff00000, 4, 32));              // affine deltas
      std::vector<uint64_t> random;
      for (int j = 0; j < 32; ++j) random.push_back(rng());
      b.mem(2, 0xffffffff, 0, random);                                           // 64-bit gather
      b.mem(2, 0xffffffff, 2, random);
    }
    b.alu(0x0000ffff);  // the same instruction under changing masks
    b.alu(0x00000000);
    b.alu(0x0000ffff);
    b.mem(1, 0x0000ffff, 1, stepping(0x2000, 4, 16));             // contiguous lanes of 16
    b.mem(1, 0x0000000a, 2, {0x1000, 0x1010});                    // lanes 1 and 3
    b.mem(1, 0x80000007, 2, {0x2000, 0x2004, 0x1ff0, 0x3000});    // irregular deltas
    b.mem(1, 0x00000007, 0, {0x2000, 0x2004, 0x1ff0});
    b.mem(2, 0x00000000, 1, {}, {0x5000, uint64_t(-8)});          // no lane: base, stride
    b.mem(2, 0x00000100, 1, {0x6000}, {16});                      // one lane: stride
    b.mem(1, 0x00000000, 2, {}, {0x7000});                        // no lane, base+delta: base
    b.mem(1, 0x00000000, 0, {});
    b.alu(0xffffffff);
    c.warps.push_back(b.w);
  }
  return c;
}

class Writers {
 public:
  explicit Writers(bool extras) : k_(kernel(extras)), table_(table(extras)) {}

  std::string by_trace(const CtaTrace& c) {
    std::ostringstream out;
    accelsim::KernelTraceWriter w(out, k_);
    w.insts(InstTable{k_.id, 0, table_});
    w.cta(c);
    return out.str();
  }

  // The text, or nullopt where the payload path leaves the CTA (having
  // written nothing of it).
  std::optional<std::string> by_payload(const CtaTrace& c, std::string_view payload) {
    std::ostringstream out;
    accelsim::KernelTraceWriter w(out, k_);
    w.insts(InstTable{k_.id, 0, table_});
    const std::string header = out.str();
    if (w.cta(c.cta, payload)) return out.str();
    EXPECT_EQ(out.str(), header);
    return std::nullopt;
  }

  std::string payload(const CtaTrace& c) { return stream::encode_warps(c.warps, table_); }

 private:
  KernelInfo k_;
  std::vector<StaticInst> table_;
};

class PayloadWriter : public testing::TestWithParam<bool> {};

TEST_P(PayloadWriter, WritesWhatTheTracePathWrites) {
  Writers writers(GetParam());
  const CtaTrace c = varied_cta();
  const auto text = writers.by_payload(c, writers.payload(c));
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, writers.by_trace(c));
  EXPECT_NE(text->find(" 00000000 1 R1 IADD3"), std::string::npos);  // the masks changed back and forth
}

// The decoder's path, as trace-unpack took it for every CTA: decoded,
// checked against the table, written; nullopt where any step refuses.
std::optional<std::string> decoded_and_written(Writers& writers, const CtaTrace& place,
                                               std::string_view payload) {
  try {
    CtaTrace c = place;
    c.warps = stream::decode_warps(payload, "t");
    stream::validate_cta(c, table(false), "t");
    return writers.by_trace(c);
  } catch (const Error&) {
    return std::nullopt;
  }
}

TEST(PayloadWriter, LeavesEveryDamagedPayloadTheDecoderRefuses) {
  Writers writers(false);
  const CtaTrace c = varied_cta();
  const std::string payload = writers.payload(c);
  EXPECT_FALSE(writers.by_payload(c, payload.substr(0, payload.size() - 1)));
  EXPECT_FALSE(writers.by_payload(c, payload + '\0'));
  size_t refused = 0;
  for (size_t i = 0; i < payload.size(); ++i)
    for (char flip : {'\x01', '\x80', '\x7f'}) {
      std::string damaged = payload;
      damaged[i] ^= flip;
      const auto expected = decoded_and_written(writers, c, damaged);
      const auto text = writers.by_payload(c, damaged);
      // Where the decoder's path writes, the payload path writes the same
      // text or leaves the CTA to it.
      if (text) {
        EXPECT_EQ(text, expected) << "byte " << i;
      }
      refused += !expected;
    }
  EXPECT_GT(refused, payload.size() / 4);  // the flips reach the checks
}

TEST_P(PayloadWriter, LeavesAPayloadThatDisagreesWithTheTable) {
  Writers writers(GetParam());
  // A load where the writer's table has an ALU instruction.
  std::vector<StaticInst> other = table(GetParam());
  std::swap(other[0].mem_width, other[1].mem_width);
  CtaTrace c;
  WarpBuilder b;
  b.mem(0, 0xffffffff, 1, stepping(0x1000, 4, 32));
  c.warps.push_back(b.w);
  EXPECT_FALSE(writers.by_payload(c, stream::encode_warps(c.warps, other)));
  // An index past the writer's table.
  c = varied_cta();
  c.warps[1].inst.back() = 3;
  std::vector<StaticInst> longer = table(GetParam());
  longer.push_back(longer[0]);
  EXPECT_FALSE(writers.by_payload(c, stream::encode_warps(c.warps, longer)));
}

TEST_P(PayloadWriter, LeavesAddressesItsModeCannotWrite) {
  Writers writers(GetParam());
  CtaTrace c;
  c.cta = {0, 0, 0};
  WarpBuilder b;
  b.mem(1, 0x0000000a, 1, {0x1000, 0x1010});  // base+stride over lanes 1 and 3
  c.warps.push_back(b.w);
  EXPECT_FALSE(writers.by_payload(c, writers.payload(c)));
  EXPECT_THROW(writers.by_trace(c), Error);
}

TEST_P(PayloadWriter, LeavesACtaWhoseTextPassesTheFlushSize) {
  Writers writers(GetParam());
  CtaTrace c;
  c.cta = {1, 0, 0};
  WarpBuilder b;
  for (int i = 0; i < 3000; ++i) b.mem(2, 0xffffffff, 0, stepping(0x10000 + 0x100 * i, 8, 32));
  c.warps.push_back(b.w);
  EXPECT_GT(writers.by_trace(c).size(), size_t(1) << 20);
  EXPECT_FALSE(writers.by_payload(c, writers.payload(c)));
}

TEST_P(PayloadWriter, GoesOnAfterLeavingACta) {
  const bool extras = GetParam();
  const CtaTrace good = varied_cta();
  std::ostringstream out, expected;
  accelsim::KernelTraceWriter w(out, kernel(extras)), reference(expected, kernel(extras));
  w.insts(InstTable{2, 0, table(extras)});
  reference.insts(InstTable{2, 0, table(extras)});
  const std::string payload = stream::encode_warps(good.warps, table(extras));
  EXPECT_FALSE(w.cta(good.cta, payload.substr(0, payload.size() / 2)));
  EXPECT_TRUE(w.cta(good.cta, payload));
  EXPECT_TRUE(w.cta(good.cta, payload));
  reference.cta(good);
  reference.cta(good);
  EXPECT_EQ(out.str(), expected.str());
}

INSTANTIATE_TEST_SUITE_P(Layouts, PayloadWriter, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) { return p.param ? "LineAndImmediate" : "Plain"; });

}  // namespace
