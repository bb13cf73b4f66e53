#include "program.hpp"

#include <bit>
#include <stdexcept>

namespace sasskit::gen {

uint32_t Program::add(const std::string& opcode, Regs dst, Regs src, uint32_t mem_width) {
  StaticInst inst;
  inst.pc = next_pc_;
  inst.opcode = opcode;
  inst.dst = std::move(dst);
  inst.src = std::move(src);
  inst.mem_width = mem_width;
  table_.push_back(std::move(inst));
  next_pc_ = dialect_.pc_after(next_pc_);
  return uint32_t(table_.size() - 1);
}

// A wide access names only its first register in the trace, as NVBit does.
uint32_t Program::load_global(uint32_t bytes, uint16_t dst, uint16_t addr) {
  return add(dialect_.global_load(bytes), {dst}, {addr}, bytes);
}
uint32_t Program::store_global(uint32_t bytes, uint16_t addr, uint16_t value) {
  return add(dialect_.global_store(bytes), {}, {addr, value}, bytes);
}
uint32_t Program::load_shared(uint32_t bytes, uint16_t dst, uint16_t addr) {
  return add(dialect_.shared_load(bytes), {dst}, {addr}, bytes);
}
uint32_t Program::store_shared(uint32_t bytes, uint16_t addr, uint16_t value) {
  return add(dialect_.shared_store(bytes), {}, {addr, value}, bytes);
}

uint32_t Program::wide_address(uint16_t dst, uint16_t index, uint16_t scale) {
  if (dialect_.version() >= 70) return add("IMAD.WIDE", {dst}, {index, scale});
  const uint32_t first = add("LEA", {dst}, {index});
  add("LEA.HI.X", {uint16_t(dst + 1)}, {index});
  return first;
}

AddrMode tracer_addr_mode(uint32_t mask, std::span<const uint64_t> active_addrs) {
  const uint32_t run = mask >> std::countr_zero(mask);
  const bool contiguous = (run & (run + 1)) == 0;
  if (!contiguous || active_addrs.size() < 2) return AddrMode::BaseDelta;
  const int64_t stride = int64_t(active_addrs[1] - active_addrs[0]);
  if (stride != int64_t(int32_t(stride))) return AddrMode::BaseDelta;
  for (size_t i = 2; i < active_addrs.size(); ++i)
    if (int64_t(active_addrs[i] - active_addrs[i - 1]) != stride) return AddrMode::BaseDelta;
  return AddrMode::BaseStride;
}

void WarpEmitter::check_access(uint32_t inst, uint32_t mask) const {
  // A generator bug, not bad input: every access has a width and a lane.
  if (table_.at(inst).mem_width == 0 || mask == 0)
    throw std::logic_error("access at table entry " + std::to_string(inst) +
                           " without a memory width or an active lane");
}

}  // namespace sasskit::gen
