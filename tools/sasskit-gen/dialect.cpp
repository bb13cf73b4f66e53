#include "dialect.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::gen {

const std::vector<uint32_t>& Dialect::supported_versions() {
  static const std::vector<uint32_t> versions{61, 70, 75, 80, 86, 90};
  return versions;
}

Dialect Dialect::for_version(uint32_t v) {
  const auto& all = supported_versions();
  if (std::find(all.begin(), all.end(), v) == all.end())
    fail_usage("binary version " + std::to_string(v) +
               " is not supported (expected one of 61, 70, 75, 80, 86, 90)");
  return Dialect(v);
}

// Pascal instructions are 8 bytes with a scheduling-control word at every
// 32-byte boundary, so code starts at 0x08 and skips 0x20, 0x40, ... (as in
// the sm_61 traces Accel-Sim records); Volta and later use 16-byte
// instructions with the control bits inside.
uint64_t Dialect::first_pc() const { return version_ < 70 ? 0x8 : 0x0; }

uint64_t Dialect::pc_after(uint64_t pc) const {
  if (version_ >= 70) return pc + 16;
  pc += 8;
  return pc % 32 == 0 ? pc + 8 : pc;
}

namespace {
std::string width_suffix(uint32_t bytes) {
  if (bytes <= 4) return "";
  std::string suffix = ".";  // built in two steps: GCC 12 warns (-Wrestrict) on "." + string
  suffix += std::to_string(bytes * 8);
  return suffix;
}
}  // namespace

// Volta and Turing default global accesses to the .SYS scope; Pascal and
// Ampere onwards print none. Accel-Sim reads the width from the number in
// the opcode (4 bytes when there is none).
std::string Dialect::global_load(uint32_t bytes) const {
  return "LDG.E" + width_suffix(bytes) + (version_ == 70 || version_ == 75 ? ".SYS" : "");
}

std::string Dialect::global_store(uint32_t bytes) const {
  return "STG.E" + width_suffix(bytes) + (version_ == 70 || version_ == 75 ? ".SYS" : "");
}

std::string Dialect::shared_load(uint32_t bytes) const {
  const std::string base = version_ < 80 ? "LDS.U" : "LDS";
  return base + (bytes > 4 ? width_suffix(bytes) : version_ < 80 ? ".32" : "");
}

std::string Dialect::shared_store(uint32_t bytes) const { return "STS" + width_suffix(bytes); }

std::string Dialect::int_mad() const { return version_ < 70 ? "XMAD" : "IMAD"; }
std::string Dialect::int_add() const { return version_ < 70 ? "IADD" : "IADD3"; }
std::string Dialect::barrier() const {
  return version_ >= 80 ? "BAR.SYNC.DEFER_BLOCKING" : "BAR.SYNC";
}
std::string Dialect::converge_begin() const { return version_ < 70 ? "SSY" : "BSSY"; }
std::string Dialect::converge_end() const { return version_ < 70 ? "SYNC" : "BSYNC"; }

// Volta's HMMA.884 covers 8x8x4 per quad pair in four steps, 16 per
// 16x16x16 tile; Turing's m16n8k8 needs 4, Ampere and later m16n8k16 need 2.
std::vector<std::string> Dialect::mma_16x16x16() const {
  if (version_ < 70) fail_usage("sm_" + std::to_string(version_) + " has no tensor cores");
  std::vector<std::string> ops;
  if (version_ == 70) {
    for (int set = 0; set < 4; ++set)
      for (int step = 0; step < 4; ++step)
        ops.push_back("HMMA.884.F32.F32.STEP" + std::to_string(step));
  } else {
    const bool turing = version_ == 75;
    ops.assign(turing ? 4 : 2, turing ? "HMMA.1688.F32" : "HMMA.16816.F32");
  }
  return ops;
}

}  // namespace sasskit::gen
