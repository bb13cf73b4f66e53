// One instruction line of Accel-Sim text, written (formats/ACCELSIM.md,
// "Instruction lines") through a pointer into a buffer with room for it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "formats/accelsim_text.hpp"
#include "formats/trace.hpp"

namespace sasskit::accelsim::detail {

// A static instruction's line with every lane active, "[line ]PC ffffffff
// dsts opcode srcs width[ immediate] \n" (the tracer ends each line with a
// space), and where the mask and a memory access's addresses go in it.
struct RenderedInst {
  std::string text;
  size_t mask_at = 0;
  size_t addresses_at = 0;  // text.size() when the instruction has none
  bool memory = false;
};
RenderedInst render(const StaticInst& inst);

// The longest address text of one line: a base and 31 deltas of at most
// 20 characters each (mode 2), " 2 0x" + 16 + 31 * 21 = 672 characters.
inline constexpr size_t kMaxAddressText = 672;

// Writes the line of `r` with `mask` up to its addresses (all of it for an
// instruction without); returns the end.
inline char* put_line_start(char* out, const RenderedInst& r, uint32_t mask) {
  std::memcpy(out, r.text.data(), r.addresses_at);
  if (mask != 0xffffffff) put_hex(out + r.mask_at, mask, 8);
  return out + r.addresses_at;
}

// Writes what follows a memory instruction's addresses.
inline char* put_line_end(char* out, const RenderedInst& r) {
  const size_t rest = r.text.size() - r.addresses_at;
  std::memcpy(out, r.text.data() + r.addresses_at, rest);
  return out + rest;
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
