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

// addr[j] = addr[0] + stride * offset(j) for every active lane j? offset
// is asked for j = 1, 2, ... in turn, once each, until one fails.
template <class Offset>
bool follows(const uint64_t* a, unsigned n, uint64_t stride, Offset offset) {
  for (unsigned j = 1; j < n; ++j)
    if (a[j] != a[0] + stride * offset(j)) return false;
  return true;
}

// The most lanes of one access: a warp's.
inline constexpr unsigned kMaxPacked = 32;

// Bytes of v as a varint.
inline unsigned varint_bytes(uint64_t v) { return (static_cast<unsigned>(std::bit_width(v | 1)) + 6) / 7; }

// Lanes that follow no rule. Varint deltas (kList) keep repeated patterns
// visible to the block compressor; offsets from the lowest lane bit-packed
// at the width of the spread (kPacked) come within a few percent of the
// entropy of random addresses, where varints lose about a fifth. Packing
// is chosen for wide spreads only, where no pattern is expected.
struct Irregular {
  LaneKind kind = kList;
  unsigned shift = 0, width = 0;
  uint64_t lowest = 0;
  std::array<uint64_t, kMaxPacked> deltas;  // lane j's zigzag((a[j] - a[j - 1]) >> shift) at j - 1
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
  for (unsigned j = 1; j < n; ++j) {
    p.deltas[j - 1] = zigzag(int64_t(a[j] - a[j - 1]) >> p.shift);
    list_bits += 8 * varint_bytes(p.deltas[j - 1]);
  }
  p.width = std::max(1, int(std::bit_width((highest - p.lowest) >> p.shift)));
  if (p.width >= 16 && uint64_t(n) * p.width + 8 < list_bits) p.kind = kPacked;
  return p;
}

// The `n` (at most kMaxPacked) values' low `width` bits (1 to 64) packed
// lowest bit first, one after another, the last byte padded with zeros.
inline void write_packed(ByteSink& out, const uint64_t* values, unsigned n, unsigned width) {
  const size_t bytes = (size_t(n) * width + 7) / 8;
  unsigned char buf[kMaxPacked * 8 + 16];  // room for a store of 9 bytes at the last value's start
  std::memset(buf, 0, bytes + 9);
  const uint64_t keep = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  for (unsigned j = 0, at = 0; j < n; ++j, at += width) {
    const uint64_t v = values[j] & keep;
    const unsigned skip = at % 8;
    uint64_t word;
    std::memcpy(&word, buf + at / 8, 8);
    word |= v << skip;
    std::memcpy(buf + at / 8, &word, 8);
    if (skip + width > 64) buf[at / 8 + 8] = static_cast<unsigned char>(v >> (64 - skip));
  }
  out.raw(std::string_view(reinterpret_cast<const char*>(buf), bytes));
}

// The first rule that lanes a[0..n) (n >= 2, the active lanes of `mask`)
// follow: affine in the active-lane number, else in the lane position,
// each with `stride`; else the kind `irregular` plans for them.
inline LaneKind classify_lanes(const uint64_t* a, unsigned n, uint32_t mask, uint64_t& stride,
                               Irregular& irregular) {
  stride = a[1] - a[0];
  if (follows(a, n, stride, [](unsigned j) { return uint64_t(j); })) return kAffine;
  // Lane positions are taken off the mask as the check goes: most lanes
  // that are not affine fail it within a few.
  const unsigned first = static_cast<unsigned>(std::countr_zero(mask));
  uint32_t rest = mask & (mask - 1);
  const int64_t gap = std::countr_zero(rest) - int64_t(first);
  const int64_t diff = int64_t(a[1] - a[0]);
  stride = uint64_t(diff / gap);
  if (diff % gap == 0 && follows(a, n, stride, [&](unsigned) {
        const unsigned at = static_cast<unsigned>(std::countr_zero(rest));
        rest &= rest - 1;
        return uint64_t(at - first);
      }))
    return kLaneAffine;
  irregular = plan_irregular(a, n);
  return irregular.kind;
}

// Irregular lanes a[0..n) as `p` plans them: the shift to `lanes`, then
// the list's deltas there, or the width there and the packed offsets from
// the lowest lane to `packed` (the archive keeps them in a column of their
// own; a cta record's payload has both in one).
inline void write_irregular(const uint64_t* a, unsigned n, const Irregular& p, ByteSink& lanes, ByteSink& packed) {
  lanes.u8(static_cast<uint8_t>(p.shift));
  if (p.kind == kList) return lanes.varints(p.deltas.data(), n - 1);
  lanes.u8(static_cast<uint8_t>(p.width));
  uint64_t offsets[kMaxPacked];
  for (unsigned j = 0; j < n; ++j) offsets[j] = (a[j] - p.lowest) >> p.shift;
  write_packed(packed, offsets, n, p.width);
}

// Reads `n` (at most kMaxPacked) values of `width` bits (1 to 64) that
// write_packed wrote, its last byte's padding skipped: the bytes are taken at
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
