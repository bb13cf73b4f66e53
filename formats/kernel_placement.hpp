// A stream kernel as libcommon/placement.hpp sees it, and the unit each of
// its instructions counts for in a CTA's predicted time: what every stage
// needs to ask place() about a kernel of the stream.
#pragma once

#include <string>

#include "formats/trace.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/placement.hpp"

namespace sasskit::stream {

// `where`: where the kernel record was read.
KernelToPlace kernel_to_place(const KernelInfo& k, const std::string& where);

// The unit that runs `inst`: its opcode's, or the load/store unit when it
// accesses memory (pipe-sim's pipeline, and placement's CTA times).
UnitClass pipeline_unit(const StaticInst& inst, const OpcodeInfo& op);

}  // namespace sasskit::stream
