#include "formats/kernel_placement.hpp"

#include "formats/kernel_stream.hpp"

namespace sasskit::stream {

KernelToPlace kernel_to_place(const KernelInfo& k, const std::string& where) {
  return KernelToPlace{.id = k.id,
                       .stream_id = k.stream_id,
                       .label = kernel_label(k),
                       .where = where,
                       .cta = CtaResources{static_cast<unsigned>(k.block.volume()), k.nregs, k.shmem},
                       .grid_ctas = k.grid.volume()};
}

UnitClass pipeline_unit(const StaticInst& inst, const OpcodeInfo& op) {
  return inst.mem_width > 0 || op.space != MemSpace::None ? UnitClass::Ldst : op.unit;
}

}  // namespace sasskit::stream
