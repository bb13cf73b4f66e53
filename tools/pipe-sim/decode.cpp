#include "decode.hpp"

#include <algorithm>
#include <map>
#include <optional>

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

// The N of a warpgroup MMA's 64xNxK shape modifier (0 when it has none).
unsigned warpgroup_mma_n(std::string_view opcode) {
  for (size_t at = opcode.find(".64x"); at != std::string_view::npos; at = opcode.find(".64x", at + 1)) {
    unsigned n = 0;
    size_t i = at + 4;
    for (; i < opcode.size() && opcode[i] >= '0' && opcode[i] <= '9' && n <= 256; ++i)
      n = n * 10 + unsigned(opcode[i] - '0');
    if (n > 0 && n <= 256 && i < opcode.size() && opcode[i] == 'x') return n;  // wgmma's N is 8 to 256
  }
  return 0;
}

}  // namespace

Classifier opcode_table_classifier(uint32_t binary_version) {
  const OpcodeTable& table = OpcodeTable::for_version(binary_version);
  return [&table](std::string_view op) { return table.classify(op); };
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

  struct PcRates {
    double l1, l2;
    std::optional<double> writeback;
  };
  std::map<uint64_t, PcRates> rates;
  if (cache)
    for (size_t k = 0; k < cache->pc.size(); ++k) {
      PcRates& r = rates[cache->pc[k]];
      r.l1 = k < cache->pc_l1_hit_rate.size() ? cache->pc_l1_hit_rate[k] : cache->l1_hit_rate;
      r.l2 = k < cache->pc_l2_hit_rate.size() ? cache->pc_l2_hit_rate[k] : cache->l2_hit_rate;
      if (k < cache->pc_writeback_sectors.size())
        r.writeback = cache->pc_l2_sectors[k] ? double(cache->pc_writeback_sectors[k]) / double(cache->pc_l2_sectors[k]) : 0.0;
    }

  for (const auto& s : table) {
    DecodedInst d;
    d.pc = s.pc;
    d.address = base_address + s.pc;
    d.pc_index = static_cast<uint32_t>(std::lower_bound(p.pcs.begin(), p.pcs.end(), s.pc) - p.pcs.begin());
    d.op = classify(s.opcode);
    d.mem_width = s.mem_width;
    d.op.unit = stream::pipeline_unit(s, d.op);
    if (d.op.is_async && d.op.unit == UnitClass::Tensor) d.mma_n = static_cast<uint16_t>(warpgroup_mma_n(s.opcode));
    p.copy_sync |= (d.op.is_async && d.is_mem()) || d.op.is_copy_group || d.op.is_copy_wait;
    p.async |= d.op.is_async || d.op.is_mma_wait || p.copy_sync;
    d.ndst = copy_registers(s.dst, d.dst);
    d.nsrc = copy_registers(s.src, d.src);
    auto r = rates.find(s.pc);
    bool known = r != rates.end();
    double l1 = known ? r->second.l1 : cache ? cache->l1_hit_rate : defaults.l1_hit;
    double l2 = known ? r->second.l2 : cache ? cache->l2_hit_rate : defaults.l2_hit;
    d.l1_hit = static_cast<float>(l1);  // rates in [0, 1]: the cache record and options check
    d.l2_hit = static_cast<float>(l2);
    // Without rd-cache's write-backs, every sector a write dirties where L2
    // misses is taken to be written back once, as in a steady stream.
    bool writes = d.op.is_store || d.op.is_atomic;
    d.writeback_rate = static_cast<float>(known && r->second.writeback ? *r->second.writeback : writes ? 1 - l2 : 0);
    p.insts.push_back(d);
  }
  return p;
}

}  // namespace sasskit::pipesim
