#include "sass_text.hpp"

namespace sasskit::stallreport {

std::string sass_text(const StaticInst& inst) {
  std::string out = inst.opcode;
  bool first = true;
  auto add = [&](const std::string& operand) {
    out += first ? " " : ", ";
    out += operand;
    first = false;
  };
  auto reg = [](uint16_t r) {
    if (r == 255) return std::string("RZ");
    std::string name = "R";
    name += std::to_string(r);  // (not "R" + ...: GCC 12 warns falsely, -Wrestrict)
    return name;
  };
  for (uint16_t r : inst.dst) add(reg(r));
  for (uint16_t r : inst.src) add(reg(r));
  if (inst.imm) add(*inst.imm);
  return out;
}

}  // namespace sasskit::stallreport
