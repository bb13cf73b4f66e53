#include "decode.hpp"

#include <algorithm>
#include <map>

namespace sasskit::pipesim {
namespace {

template <size_t N>
uint8_t copy_registers(const std::vector<uint16_t>& regs, std::array<uint16_t, N>& out) {
  uint8_t n = 0;
  for (uint16_t r : regs) {
    if (r == kRegZero || r > 255 || n == N) continue;
    if (std::find(out.begin(), out.begin() + n, r) != out.begin() + n) continue;
    out[n++] = r;
  }
  return n;
}

}  // namespace

Classifier opcode_table_classifier(uint32_t binary_version) {
  const OpcodeTable& table = OpcodeTable::for_version(binary_version);
  return [&table](std::string_view op) { return table.classify(op); };
}

UnitClass pipeline_unit(const StaticInst& inst, const OpcodeInfo& op) {
  return inst.mem_width > 0 || op.space != MemSpace::None ? UnitClass::Ldst : op.unit;
}

uint64_t code_footprint(const std::vector<StaticInst>& table, unsigned line) {
  uint64_t end = 0;
  for (const auto& i : table) end = std::max(end, i.pc + 16);
  line = std::max(1u, line);
  return (end + line - 1) / line * line;
}

KernelProgram build_program(uint32_t kernel_id, const std::vector<StaticInst>& table, uint64_t base_address,
                            const Classifier& classify, const KernelCacheModel* cache,
                            const MemoryDefaults& defaults) {
  KernelProgram p;
  p.kernel_id = kernel_id;
  for (const auto& i : table) p.pcs.push_back(i.pc);
  std::sort(p.pcs.begin(), p.pcs.end());
  p.pcs.erase(std::unique(p.pcs.begin(), p.pcs.end()), p.pcs.end());

  std::map<uint64_t, std::pair<double, double>> rates;
  if (cache)
    for (size_t k = 0; k < cache->pc.size(); ++k) {
      double l1 = k < cache->pc_l1_hit_rate.size() ? cache->pc_l1_hit_rate[k] : cache->l1_hit_rate;
      double l2 = k < cache->pc_l2_hit_rate.size() ? cache->pc_l2_hit_rate[k] : cache->l2_hit_rate;
      rates[cache->pc[k]] = {l1, l2};
    }

  for (const auto& s : table) {
    DecodedInst d;
    d.pc = s.pc;
    d.address = base_address + s.pc;
    d.pc_index = static_cast<uint32_t>(std::lower_bound(p.pcs.begin(), p.pcs.end(), s.pc) - p.pcs.begin());
    d.op = classify(s.opcode);
    d.mem_width = s.mem_width;
    d.op.unit = pipeline_unit(s, d.op);
    d.ndst = copy_registers(s.dst, d.dst);
    d.nsrc = copy_registers(s.src, d.src);
    auto r = rates.find(s.pc);
    bool known = r != rates.end();
    double l1 = known ? r->second.first : cache ? cache->l1_hit_rate : defaults.l1_hit;
    double l2 = known ? r->second.second : cache ? cache->l2_hit_rate : defaults.l2_hit;
    d.l1_hit = static_cast<float>(l1);  // rates in [0, 1]: the cache record and options check
    d.l2_hit = static_cast<float>(l2);
    p.insts.push_back(d);
  }
  return p;
}

}  // namespace sasskit::pipesim
