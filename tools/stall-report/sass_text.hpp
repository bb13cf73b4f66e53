// One static instruction as SASS-like text for the top stalled PCs.
#pragma once

#include <string>

#include "formats/trace.hpp"

namespace sasskit::stallreport {

// "IADD3 R5, R4, R1": opcode, destinations then sources (255 is RZ), and the
// immediate when the trace kept one.
std::string sass_text(const StaticInst& inst);

}  // namespace sasskit::stallreport
