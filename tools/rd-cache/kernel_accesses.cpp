#include "kernel_accesses.hpp"

#include <bit>
#include <limits>
#include <span>
#include <sstream>

#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::rdcache {

namespace {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

WarpAccesses warp_accesses(const WarpTrace& w, const KernelAccesses& kernel,
                           std::array<Traffic, kCategories>* uncached, const std::string& where) {
  const std::vector<StaticInst>& table = kernel.table;
  const LineShape shape{kernel.gpu->l1d.line_bytes, kernel.gpu->l1d.sector_bytes};
  std::vector<LineAccess> lines;
  WarpAccesses out;
  out.dyn_insts = static_cast<uint32_t>(w.inst.size());
  out.addr_begin.push_back(0);
  size_t next = 0;  // into w.addrs
  for (size_t i = 0; i < w.inst.size(); ++i) {
    const StaticInst& s = table[w.inst[i]];
    if (s.mem_width == 0) continue;
    const unsigned lanes = active_lanes(w.mask[i]);
    if (lanes == 0) continue;
    const uint64_t last_start = std::numeric_limits<uint64_t>::max() - (s.mem_width - 1);
    for (size_t a = next; a < next + lanes; ++a) {
      if (w.addrs[a] > last_start)
        fail_input(where + ": warp " + std::to_string(w.warp_id),
                   "address " + hex(w.addrs[a]) + " + " + std::to_string(s.mem_width) +
                       " bytes (" + s.opcode + " at pc " + hex(s.pc) +
                       ") runs past the 64-bit address space");
    }
    const Route& route = kernel.routes[w.inst[i]];
    if (!route.cached) {
      if (uncached) {
        coalesce(std::span(w.addrs).subspan(next, lanes), s.mem_width, shape, lines);
        (*uncached)[route.category].requests += 1;
        for (const LineAccess& l : lines) (*uncached)[route.category].sectors += std::popcount(l.mask);
      }
      next += lanes;
      continue;
    }
    out.addrs.insert(out.addrs.end(), w.addrs.begin() + static_cast<ptrdiff_t>(next),
                     w.addrs.begin() + static_cast<ptrdiff_t>(next + lanes));
    next += lanes;
    out.pos.push_back(static_cast<uint32_t>(i));
    out.inst.push_back(w.inst[i]);
    out.addr_begin.push_back(static_cast<uint32_t>(out.addrs.size()));
  }
  return out;
}

}  // namespace

KernelAccesses::KernelAccesses(const KernelInfo& kernel, const GpuConfig& model) : info(kernel), gpu(&model) {}

void add_insts(KernelAccesses& kernel, const std::vector<StaticInst>& insts) {
  const OpcodeTable& opcodes = OpcodeTable::for_version(kernel.info.binary_version);
  for (const StaticInst& s : insts) {
    kernel.table.push_back(s);
    kernel.routes.push_back(s.mem_width > 0 ? route_of(s.opcode, opcodes.classify(s.opcode), *kernel.gpu) : Route{});
  }
}

void count_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where) {
  for (const WarpTrace& w : cta.warps)
    kernel.lane_addresses += warp_accesses(w, kernel, &kernel.uncached, where).addrs.size();
}

CtaAccesses cta_accesses(const KernelAccesses& kernel, const CtaTrace& cta, uint32_t linear) {
  CtaAccesses c;
  c.linear = linear;
  for (const WarpTrace& w : cta.warps) c.warps.push_back(warp_accesses(w, kernel, nullptr, "spilled cta record"));
  return c;
}

void add_cta(KernelAccesses& kernel, const CtaTrace& cta, const std::string& where) {
  stream::validate_cta(cta, kernel.table, where);
  const auto linear = static_cast<uint32_t>(
      stream::cta_linear_index(cta.cta, kernel.info.grid, stream::kernel_label(kernel.info), where));
  count_cta(kernel, cta, where);
  kernel.ctas.push_back(cta_accesses(kernel, cta, linear));
}

}  // namespace sasskit::rdcache
