// The in-memory model of a SASS trace, shared by every reader and writer:
// Accel-Sim text, the archive and the stream all convert to and from these.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sasskit {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t volume() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3&) const = default;
};

// A kernel launch: every field of an Accel-Sim kernel-N.traceg header.
struct KernelInfo {
  uint32_t id = 0;
  std::string name;
  Dim3 grid, block;
  uint32_t shmem = 0;           // dynamic + static shared memory per CTA, bytes
  uint32_t nregs = 0;           // registers per thread
  uint32_t binary_version = 0;  // SASS binary version, e.g. 70 for sm_70
  uint64_t stream_id = 0;       // CUDA stream
  uint64_t shmem_base = 0;      // shared window base address
  uint64_t local_base = 0;      // local window base address
  std::string nvbit_version;
  uint32_t tracer_version = 0;  // Accel-Sim tracer version: 3, 4 or 5
  bool lineinfo = false;
  std::string trace_file;       // name of its line in kernelslist.g, e.g. kernel-1.traceg
  // Header comment lines as written (e.g. "#traces format = ..."); their
  // wording differs between tracer versions, so they are kept verbatim.
  std::vector<std::string> comments;
  bool operator==(const KernelInfo&) const = default;
};

// A host-to-device copy line of kernelslist.g, kept in launch order.
struct Memcpy {
  uint64_t address = 0;
  uint64_t bytes = 0;
  bool operator==(const Memcpy&) const = default;
};

// One static instruction. A kernel's instruction table holds each distinct
// (pc, operands, opcode, width, ...) once; dynamic instructions refer to it
// by index, so the rare PC that appears with two spellings stays lossless.
struct StaticInst {
  uint64_t pc = 0;
  std::optional<uint32_t> line;   // source line (lineinfo traces)
  std::string opcode;             // with modifiers, e.g. LDG.E.128.SYS
  std::vector<uint16_t> dst;      // destination registers (255 = RZ)
  std::vector<uint16_t> src;      // source registers
  uint32_t mem_width = 0;         // bytes per lane; 0 = not a memory access
  std::optional<std::string> imm; // trailing immediate token, as written
  bool operator==(const StaticInst&) const = default;
};

// How a memory instruction's addresses were written in Accel-Sim text.
enum class AddrMode : uint8_t { List = 0, BaseStride = 1, BaseDelta = 2 };

// One warp's dynamic trace in columns: for each dynamic instruction the
// index into the kernel's table and the active mask; for each dynamic memory
// instruction (mem_width > 0) its address mode and one address per active
// lane, all such addresses concatenated in order. `addr_extra` holds the
// few values Accel-Sim text carries that the addresses do not determine
// (see addr_extra_count), in the order of their memory instructions.
struct WarpTrace {
  uint32_t warp_id = 0;
  std::vector<uint32_t> inst;
  std::vector<uint32_t> mask;
  std::vector<uint8_t> addr_mode;
  std::vector<uint64_t> addrs;
  std::vector<uint64_t> addr_extra;
  bool operator==(const WarpTrace&) const = default;
};

struct CtaTrace {
  uint32_t kernel_id = 0;
  Dim3 cta;  // thread block index
  std::vector<WarpTrace> warps;
  bool operator==(const CtaTrace&) const = default;
};

// CUDA allows 1024 threads (32 warps) per block; readers accept up to this
// many warps, leaving room while keeping a forged count from allocating
// without limit.
inline constexpr uint64_t kMaxWarpsPerCta = 2048;
// Dynamic warp instructions one thread block may expand to where a format
// can repeat data by reference (the archive's sequence dictionary): 2^26
// instructions, 512 MiB of instruction and mask columns.
inline constexpr uint64_t kMaxCtaInstructions = uint64_t(1) << 26;

// Bits counted in parallel (SWAR): the build targets every x86-64 (no
// -mpopcnt), where std::popcount is a call into libgcc.
inline unsigned active_lanes(uint32_t mask) {
  mask -= (mask >> 1) & 0x55555555u;
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  return (((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// How many addr_extra values a memory instruction carries: base+stride with
// no active lane keeps base and stride, with one active lane the stride;
// base+delta with no active lane keeps the base. Strides are stored as
// two's complement.
inline unsigned addr_extra_count(AddrMode mode, uint32_t mask) {
  unsigned lanes = active_lanes(mask);
  if (mode == AddrMode::BaseStride) return lanes == 0 ? 2 : lanes == 1 ? 1 : 0;
  if (mode == AddrMode::BaseDelta) return lanes == 0 ? 1 : 0;
  return 0;
}

}  // namespace sasskit
