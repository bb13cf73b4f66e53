// The archive's sequence dictionary lets a warp repeat an earlier warp's
// instructions by reference, so a few bytes can stand for many
// instructions. The decoder stops a thread block at kMaxCtaInstructions
// (formats/trace.hpp) before the references expand it further.
#include <gtest/gtest.h>

#include <limits>

#include "formats/archive_cta.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::archive;

namespace {

constexpr uint64_t kSequenceLength = uint64_t(1) << 16;

// A block of two CTAs: the first has one warp with a literal sequence of
// kSequenceLength instructions (all index 0, full mask); the second has
// `warps` warps that each refer to that sequence.
std::string block_repeating_sequence(uint64_t warps) {
  Columns cols;
  auto cta_header = [&](uint64_t warp_count) {
    cols[kCtaColumn].svarint(0);  // same kernel
    cols[kCtaColumn].varint(0);   // the next CTA index
    cols[kCtaColumn].varint(warp_count);
  };
  cta_header(1);
  cols[kCtaColumn].svarint(0);  // warp id 0
  cols[kSeqColumn].varint(0);   // literal
  cols[kInstColumn].varint(kSequenceLength);
  cols[kInstColumn].svarint(0);  // index 0 after "-1"
  for (uint64_t i = 1; i < kSequenceLength; ++i) cols[kInstColumn].svarint(-1);  // index 0 again
  for (uint64_t i = 0; i < kSequenceLength; ++i) cols[kMaskColumn].varint(0);   // mask unchanged
  cta_header(warps);
  for (uint64_t w = 0; w < warps; ++w) {
    cols[kCtaColumn].svarint(0);
    cols[kSeqColumn].varint(1);  // dictionary entry 0
  }
  return cols.join(2);
}

// The message decoding `payload` raises, or "".
std::string decode_error(const std::string& payload) {
  KernelInfo kernel;
  kernel.id = 1;
  kernel.grid = {2, 1, 1};
  kernel.block = {32, 1, 1};
  const std::vector<StaticInst> table = {{0x00, std::nullopt, "NOP", {}, {}, 0, std::nullopt}};
  CtaDecoder decoder(kernel, uint64_t(1) << 24);
  try {
    decoder.decode(payload, table, "block", [](const CtaTrace&) {});
    return "";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.what();
  }
}

TEST(CtaCodecBound, ReferencesPastTheLimitAreRefused) {
  const uint64_t warps = kMaxCtaInstructions / kSequenceLength + 1;
  const std::string payload = block_repeating_sequence(warps);
  EXPECT_LT(payload.size(), 1u << 20);  // a small block ...
  EXPECT_NE(decode_error(payload).find("repeats sequences to more than 67108864 instructions"),
            std::string::npos);  // ... that would expand to 2^26 + 2^16 instructions
}

// One CTA of one warp of one instruction whose kernel id, warp id and
// instruction index are coded as the differences given.
std::string block_with_deltas(int64_t kernel_delta, int64_t warp_delta, int64_t inst_delta) {
  Columns cols;
  cols[kCtaColumn].svarint(kernel_delta);
  cols[kCtaColumn].varint(0);  // the next CTA index
  cols[kCtaColumn].varint(1);  // one warp
  cols[kCtaColumn].svarint(warp_delta);
  cols[kSeqColumn].varint(0);  // literal
  cols[kInstColumn].varint(1);
  cols[kInstColumn].svarint(inst_delta);
  cols[kMaskColumn].varint(0);
  return cols.join(1);
}

// Ids and indexes are coded as differences: a difference that would carry
// one past its range (found by cta_block_fuzz: a signed overflow) or out of
// 32 bits is damage, never wrapped into another id.
TEST(CtaCodecBound, DifferencesPastTheirRangeAreRefused) {
  EXPECT_EQ(decode_error(block_with_deltas(0, 0, 0)), "");
  const int64_t most = std::numeric_limits<int64_t>::max();
  // kernel 1 + most: the sum itself overflows
  EXPECT_NE(decode_error(block_with_deltas(most, 0, 0)).find("a difference past the range of its value"),
            std::string::npos);
  EXPECT_NE(decode_error(block_with_deltas(-2, 0, 0)).find("kernel id -1 out of range"), std::string::npos);
  EXPECT_NE(decode_error(block_with_deltas(0, int64_t(1) << 32, 0)).find("warp id 4294967296 out of range"),
            std::string::npos);
  EXPECT_NE(decode_error(block_with_deltas(0, most, 0)).find("warp id 9223372036854775807 out of range"),
            std::string::npos);
  EXPECT_NE(decode_error(block_with_deltas(0, 0, most)).find("outside the kernel's table"), std::string::npos);
}

}  // namespace
