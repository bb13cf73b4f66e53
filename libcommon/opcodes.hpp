// SASS opcode -> execution unit, memory space and control-flow properties,
// from the tables in configs/opcodes/ (one per binary version).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "libcommon/gpu_config.hpp"

namespace sasskit {

enum class MemSpace : uint8_t { None, Global, Local, Shared, Constant, Texture, Generic };
const char* mem_space_name(MemSpace s);

struct OpcodeInfo {
  UnitClass unit = UnitClass::Int;
  MemSpace space = MemSpace::None;
  bool is_load = false;
  bool is_store = false;
  bool is_atomic = false;
  bool is_barrier = false;  // BAR.SYNC and friends
  bool is_branch = false;
  bool is_exit = false;
  bool known = true;        // false: the documented fallback was used
};

// The opcode table for one SASS binary version (61, 70, 75, 80, 86, 90, ...).
class OpcodeTable {
 public:
  // Loads configs/opcodes/sm_<version>.tsv (nearest lower version if absent).
  static const OpcodeTable& for_version(uint32_t binary_version);
  // Classifies a full opcode with modifiers, e.g. "HMMA.884.F32.F32.STEP0".
  // Unknown opcodes warn once per opcode and get the fallback (see man page).
  OpcodeInfo classify(std::string_view opcode) const;
};

}  // namespace sasskit
