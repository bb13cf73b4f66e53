// Building blocks of a generated kernel: its static instruction table (code
// order fixes the PCs) and the emitter that appends one warp's dynamic
// instructions, choosing each access's address mode as the tracer would.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dialect.hpp"
#include "formats/trace.hpp"

namespace sasskit::gen {

using Regs = std::vector<uint16_t>;
inline constexpr uint16_t RZ = 255;  // the zero register, R255 in traces
inline constexpr uint32_t kFullMask = 0xffffffffu;

// The static instructions of one kernel in code order.
class Program {
 public:
  explicit Program(Dialect dialect) : dialect_(dialect), next_pc_(dialect.first_pc()) {}
  const Dialect& dialect() const { return dialect_; }
  // Appends the next instruction; returns its index in the table.
  uint32_t add(const std::string& opcode, Regs dst, Regs src, uint32_t mem_width = 0);
  uint32_t load_global(uint32_t bytes, uint16_t dst, uint16_t addr);
  uint32_t store_global(uint32_t bytes, uint16_t addr, uint16_t value);
  uint32_t load_shared(uint32_t bytes, uint16_t dst, uint16_t addr);
  uint32_t store_shared(uint32_t bytes, uint16_t addr, uint16_t value);
  // dst:dst+1 = a kernel argument pointer + index * scale: IMAD.WIDE, or
  // LEA and LEA.HI.X on Pascal. Returns the first of the added entries.
  uint32_t wide_address(uint16_t dst, uint16_t index, uint16_t scale);
  const std::vector<StaticInst>& table() const { return table_; }
  uint32_t size() const { return uint32_t(table_.size()); }

 private:
  Dialect dialect_;
  uint64_t next_pc_;
  std::vector<StaticInst> table_;
};

// The address mode NVBit-based Accel-Sim tracer (v4) writes for one access:
// base + stride when the active lanes are one contiguous run of at least two
// lanes with a constant 32-bit stride, base + deltas otherwise.
AddrMode tracer_addr_mode(uint32_t mask, std::span<const uint64_t> active_addrs);

// Appends dynamic instructions to one warp's columns.
class WarpEmitter {
 public:
  WarpEmitter(WarpTrace& warp, const std::vector<StaticInst>& table) : warp_(warp), table_(table) {}

  void exec(uint32_t inst, uint32_t mask) {
    warp_.inst.push_back(inst);
    warp_.mask.push_back(mask);
  }
  // Straight-line non-memory code: table entries [first, end).
  void exec_range(uint32_t first, uint32_t end, uint32_t mask) {
    for (uint32_t i = first; i < end; ++i) exec(i, mask);
  }

  // A memory instruction; `lane_addr(lane)` gives each active lane's address.
  template <class LaneAddr>
  void access(uint32_t inst, uint32_t mask, LaneAddr&& lane_addr) {
    check_access(inst, mask);
    exec(inst, mask);
    const size_t first = warp_.addrs.size();
    for (uint32_t m = mask; m != 0; m &= m - 1)
      warp_.addrs.push_back(lane_addr(unsigned(std::countr_zero(m))));
    const std::span<const uint64_t> added(warp_.addrs.data() + first, warp_.addrs.size() - first);
    warp_.addr_mode.push_back(uint8_t(tracer_addr_mode(mask, added)));
  }

 private:
  void check_access(uint32_t inst, uint32_t mask) const;
  WarpTrace& warp_;
  const std::vector<StaticInst>& table_;
};

// The lanes [0, n) of a warp, n <= 32.
inline uint32_t first_lanes(unsigned n) { return n >= 32 ? kFullMask : (1u << n) - 1; }

}  // namespace sasskit::gen
