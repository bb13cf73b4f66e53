#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "formats/archive_lanes.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::archive;
using sasskit::test::error_of;

namespace {

// The packing as ARCHIVE.md states it, one bit at a time: bit b of value j
// is bit j * width + b of the stream, lowest bit of each byte first.
std::string packed_bit_by_bit(const std::vector<uint64_t>& values, unsigned width) {
  std::string out((values.size() * width + 7) / 8, '\0');
  for (size_t j = 0; j < values.size(); ++j)
    for (unsigned b = 0; b < width; ++b)
      if (values[j] >> b & 1) {
        const size_t at = j * width + b;
        out[at / 8] = static_cast<char>(out[at / 8] | 1 << (at % 8));
      }
  return out;
}

std::vector<uint64_t> random_values(std::mt19937_64& rng, unsigned n, unsigned width) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = width == 64 ? rng() : rng() & ((uint64_t(1) << width) - 1);
  return v;
}

TEST(PackedLanes, WriterAndReaderAgreeWithTheBitByBitPackingAtEveryWidthAndCount) {
  std::mt19937_64 rng(35);
  for (unsigned width = 1; width <= 64; ++width)
    for (unsigned n = 1; n <= kMaxPacked; ++n) {
      const std::vector<uint64_t> values = random_values(rng, n, width);
      std::vector<uint64_t> with_high_bits = values;  // bits above the width are ignored
      if (width < 64)
        for (uint64_t& v : with_high_bits) v |= rng() << width;
      ByteSink sink;
      sink.u8(0x5a);  // what the sink held before is kept
      write_packed(sink, with_high_bits.data(), n, width);
      ASSERT_EQ(sink.data()[0], '\x5a');
      sink = ByteSink();
      write_packed(sink, with_high_bits.data(), n, width);
      ASSERT_EQ(sink.data(), packed_bit_by_bit(values, width)) << "width " << width << ", n " << n;
      const std::string data = std::string(sink.data()) + "tail";
      ByteSource source(data, "t");
      uint64_t back[kMaxPacked];
      read_packed(source, n, width, back);
      ASSERT_EQ(std::vector<uint64_t>(back, back + n), values) << "width " << width << ", n " << n;
      EXPECT_EQ(source.remaining(), 4u) << "reads only the packed bytes";
    }
}

TEST(PackedLanes, ReaderIgnoresThePaddingOfTheLastByte) {
  const std::string data(2, '\xff');
  ByteSource source(data, "t");
  uint64_t back[kMaxPacked];
  read_packed(source, 3, 5, back);  // 15 bits: the last one is padding
  EXPECT_EQ(back[0], 31u);
  EXPECT_EQ(back[1], 31u);
  EXPECT_EQ(back[2], 31u);
  EXPECT_TRUE(source.done());
}

TEST(PackedLanes, ReaderRefusesDataThatEndsEarly) {
  const std::string data = "\x01\x02\x03";
  ByteSource source(data, "blk");
  uint64_t back[kMaxPacked];
  EXPECT_EQ(error_of([&] { read_packed(source, 2, 13, back); }), "blk: damaged archive: data ends early");
}

}  // namespace

namespace {

// varint_bytes by its definition: 7 bits a byte.
unsigned varint_bytes_by_loop(uint64_t v) {
  unsigned n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

}  // namespace

TEST(PackedLanes, VarintBytesAndTheBulkWriterAgreeWithOneVarintAtATime) {
  std::vector<uint64_t> values = {0, 1, 0x7f, 0x80, 0x3fff, 0x4000, ~uint64_t(0)};
  for (unsigned b = 0; b < 64; ++b) values.push_back((uint64_t(1) << b) - 1), values.push_back(uint64_t(1) << b);
  ByteSink one, bulk;
  for (uint64_t v : values) {
    EXPECT_EQ(varint_bytes(v), varint_bytes_by_loop(v)) << v;
    one.varint(v);
  }
  bulk.u8(7);
  bulk.varints(values.data(), values.size());
  EXPECT_EQ(std::string(bulk.data()), '\x07' + std::string(one.data()));
  bulk.varints(values.data(), 0);
  EXPECT_EQ(bulk.size(), one.size() + 1);
}
