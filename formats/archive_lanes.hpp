// How the archive stores the lanes of one memory instruction
// (formats/ARCHIVE.md, "Lane kinds"): the rules tried and the bit packing of
// irregular lanes. Internal to the CTA codec.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

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

class BitWriter {
 public:
  explicit BitWriter(ByteSink& out) : out_(out) {}
  ~BitWriter() {
    if (fill_) out_.u8(acc_);
  }
  void put(uint64_t v, unsigned width) {
    for (unsigned done = 0; done < width;) {
      unsigned take = std::min(width - done, 8 - fill_);
      acc_ |= static_cast<uint8_t>(((v >> done) & ((1u << take) - 1)) << fill_);
      fill_ += take;
      done += take;
      if (fill_ == 8) {
        out_.u8(acc_);
        acc_ = 0;
        fill_ = 0;
      }
    }
  }

 private:
  ByteSink& out_;
  uint8_t acc_ = 0;
  unsigned fill_ = 0;
};

// Reads what one BitWriter wrote; the padding of its last byte is skipped.
class BitReader {
 public:
  explicit BitReader(ByteSource& in) : in_(in) {}
  uint64_t get(unsigned width) {
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
      if (left_ == 0) {
        byte_ = in_.u8();
        left_ = 8;
      }
      unsigned take = std::min(width - done, left_);
      v |= uint64_t((byte_ >> (8 - left_)) & ((1u << take) - 1)) << done;
      left_ -= take;
      done += take;
    }
    return v;
  }

 private:
  ByteSource& in_;
  uint8_t byte_ = 0;
  unsigned left_ = 0;
};

}  // namespace sasskit::archive
