// One instruction line of Accel-Sim text, written (formats/ACCELSIM.md,
// "Instruction lines") through a pointer into a buffer with room for it.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "formats/accelsim_text.hpp"
#include "formats/trace.hpp"

namespace sasskit::accelsim::detail {

// Copies go 16 bytes at a time: a line's text is followed by this many
// bytes that a copy may read, and the room for a line by as many it may write.
inline constexpr size_t kCopySlack = 16;

// Text and decimal numbers written through a pointer with room for them
// (a number takes at most 20 characters).
inline char* put_text(char* out, std::string_view text) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}
template <class T>
char* put_dec(char* out, T value) {
  return std::to_chars(out, out + 20, value).ptr;
}

inline char* copy_in_blocks(char* out, const char* from, size_t size) {
  for (size_t i = 0; i < size; i += kCopySlack) std::memcpy(out + i, from + i, kCopySlack);
  return out + size;
}

// A static instruction's line, "[line ]PC MASK dsts opcode srcs width[
// immediate] \n" (the tracer ends each line with a space), and where the
// mask and a memory access's addresses go in it. The text holds the mask
// last written with it (at first every lane active): an instruction mostly
// runs with the same mask.
struct RenderedInst {
  std::string text;  // size characters, then kCopySlack more
  size_t size = 0;
  size_t mask_at = 0;
  size_t addresses_at = 0;  // size when the instruction has none
  bool memory = false;
  uint32_t mask = 0xffffffff;
};
RenderedInst render(const StaticInst& inst);

// The longest address text of one line: a base and 31 deltas of at most
// 20 characters each (mode 2), " 2 0x" + 16 + 31 * 21 = 672 characters.
inline constexpr size_t kMaxAddressText = 672;

// Writes the line of `r` with `mask` up to its addresses (all of it for an
// instruction without); returns the end. `out` has room for the line and
// kCopySlack more.
inline char* put_line_start(char* out, RenderedInst& r, uint32_t mask) {
  if (mask != r.mask) {
    put_hex(r.text.data() + r.mask_at, mask, 8);
    r.mask = mask;
  }
  return copy_in_blocks(out, r.text.data(), r.addresses_at);
}

// Writes what follows a memory instruction's addresses.
inline char* put_line_end(char* out, const RenderedInst& r) {
  return copy_in_blocks(out, r.text.data() + r.addresses_at, r.size - r.addresses_at);
}

// One memory access's addresses: every active lane's in `lanes`, or, when
// `affine`, the first lane's, each next one `stride` further.
struct AccessAddresses {
  const uint64_t* lanes = nullptr;
  bool affine = false;
  uint64_t stride = 0;
};

// Writes " MODE ADDRESSES..." of one memory access (at most
// kMaxAddressText characters) and returns the end; `extra` points at its
// extra values (addr_extra_count) and is advanced. nullptr, with `extra`
// unspecified, when `mode` is not 0, 1 or 2, or is 1 (base+stride) and the
// addresses are not a base and a stride over contiguous lanes.
char* put_addresses(char* out, uint32_t mask, AddrMode mode, const AccessAddresses& a,
                    const uint64_t*& extra);

// The message of a put_addresses refusal, for BadInput at the access.
std::string refused_addresses(uint32_t mask, AddrMode mode);

}  // namespace sasskit::accelsim::detail
