// How the archive stores the lanes of one memory instruction
// (formats/ARCHIVE.md, "Lane kinds"): the rules tried and the bit packing of
// irregular lanes. Internal to the CTA codec.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "formats/archive_bytes.hpp"

namespace sasskit::archive {

enum LaneKind : uint8_t { kAffine = 0, kLaneAffine = 1, kList = 2, kPacked = 3 };

// Positions of the active lanes of `mask`, lowest first.
inline std::array<uint8_t, 32> lane_positions(uint32_t mask) {
  std::array<uint8_t, 32> pos{};
  for (unsigned j = 0; mask; ++j, mask &= mask - 1) pos[j] = static_cast<uint8_t>(std::countr_zero(mask));
  return pos;
}

// addr[j] = addr[0] + stride * offset(j) for every active lane j?
template <class Offset>
bool follows(const uint64_t* a, unsigned n, uint64_t stride, Offset offset) {
  for (unsigned j = 1; j < n; ++j)
    if (a[j] != a[0] + stride * offset(j)) return false;
  return true;
}

inline unsigned varint_bytes(uint64_t v) { return v < 0x80 ? 1 : 1 + varint_bytes(v >> 7); }

// Lanes that follow no rule. Varint deltas (kList) keep repeated patterns
// visible to the block compressor; offsets from the lowest lane bit-packed
// at the width of the spread (kPacked) come within a few percent of the
// entropy of random addresses, where varints lose about a fifth. Packing
// is chosen for wide spreads only, where no pattern is expected.
struct Irregular {
  LaneKind kind = kList;
  unsigned shift = 0, width = 0;
  uint64_t lowest = 0;
};

inline Irregular plan_irregular(const uint64_t* a, unsigned n) {
  Irregular p;
  uint64_t any = 0, highest = a[0];
  p.lowest = a[0];
  for (unsigned j = 1; j < n; ++j) {
    any |= a[j] - a[j - 1];
    p.lowest = std::min(p.lowest, a[j]);
    highest = std::max(highest, a[j]);
  }
  p.shift = std::countr_zero(any);  // any != 0: equal lanes are affine
  uint64_t list_bits = 0;
  for (unsigned j = 1; j < n; ++j) list_bits += 8 * varint_bytes(zigzag(int64_t(a[j] - a[j - 1]) >> p.shift));
  p.width = std::max(1, int(std::bit_width((highest - p.lowest) >> p.shift)));
  if (p.width >= 16 && uint64_t(n) * p.width + 8 < list_bits) p.kind = kPacked;
  return p;
}

// Values of a fixed width packed lowest bit first, one after another; the
// last byte is padded with zeros.
class BitWriter {
 public:
  explicit BitWriter(ByteSink& out) : out_(out) {}
  ~BitWriter() {
    if (fill_) out_.u8(static_cast<uint8_t>(acc_));
  }
  // The low `width` bits of v (1 to 64).
  void put(uint64_t v, unsigned width) {
    if (width < 64) v &= (uint64_t(1) << width) - 1;
    // The bits in hand and v's, as 72 bits: `low` and the few of v that
    // shifting it up by fill_ pushed out.
    uint64_t low = acc_ | v << fill_;
    uint64_t high = fill_ ? v >> (64 - fill_) : 0;
    unsigned bits = fill_ + width;
    for (; bits >= 8; bits -= 8) {
      out_.u8(static_cast<uint8_t>(low));
      low = low >> 8 | high << 56;
      high >>= 8;
    }
    acc_ = static_cast<uint8_t>(low);
    fill_ = bits;
  }

 private:
  ByteSink& out_;
  uint8_t acc_ = 0;   // the bits not yet written, fewer than 8
  unsigned fill_ = 0;
};

// The most values one call of read_packed unpacks: a warp's lanes.
inline constexpr unsigned kMaxPacked = 32;

// Reads `n` (at most kMaxPacked) values of `width` bits (1 to 64) that one
// BitWriter wrote, its last byte's padding skipped: the bytes are taken at
// once, then each value is one unaligned load and a shift.
inline void read_packed(ByteSource& in, unsigned n, unsigned width, uint64_t* values) {
  const std::string_view bytes = in.raw((size_t(n) * width + 7) / 8);
  unsigned char buf[kMaxPacked * 8 + 16];  // room for a load of 9 bytes at the last value's start
  std::memcpy(buf, bytes.data(), bytes.size());
  std::memset(buf + bytes.size(), 0, 16);
  const uint64_t keep = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  for (unsigned j = 0, at = 0; j < n; ++j, at += width) {
    uint64_t word;
    std::memcpy(&word, buf + at / 8, 8);
    const unsigned skip = at % 8;
    uint64_t v = word >> skip;
    if (skip + width > 64) v |= uint64_t(buf[at / 8 + 8]) << (64 - skip);
    values[j] = v & keep;
  }
}

}  // namespace sasskit::archive
