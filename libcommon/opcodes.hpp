// SASS opcode -> execution unit, memory space and control-flow properties,
// from the tables in configs/opcodes/ (one per binary version).
#pragma once

#include <cstdint>
#include <memory>
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
  // Hopper's asynchronous instructions (sasskit-config(5), OPCODE TABLES): an
  // async one (warpgroup MMA, bulk copy) occupies its unit but its result is
  // visible only at the wait that covers it, not to the next reader of its
  // registers; an MMA wait waits for the warp's async MMAs; a copy group
  // (mbarrier arrive with a byte count) starts a phase that the copies after
  // it complete; a copy wait waits for the next phase its warp has not seen.
  bool is_async = false;
  bool is_mma_wait = false;
  bool is_copy_group = false;
  bool is_copy_wait = false;
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

  // Loads one table file (and the files it includes); for_version() caches these.
  explicit OpcodeTable(const std::string& tsv_path);
  ~OpcodeTable();
  OpcodeTable(const OpcodeTable&) = delete;
  OpcodeTable& operator=(const OpcodeTable&) = delete;
  const std::string& path() const { return path_; }

  // The information for an opcode that no row matches: INT, no memory space,
  // no flags, known = false.
  static OpcodeInfo fallback();

 private:
  struct Impl;
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

// The table file for a binary version: opcodes/sm_<N>.tsv with the largest
// N <= version (the smallest N, with a warning, when none is lower), searched
// in config_search_dirs() like the GPU models. Throws when there is none.
std::string opcode_table_path(uint32_t binary_version);

}  // namespace sasskit
