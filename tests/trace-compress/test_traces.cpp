#include "test_traces.hpp"

#include <bit>
#include <random>

namespace sasskit::testing {
namespace {

StaticInst inst(uint64_t pc, const char* op, uint32_t width) {
  StaticInst s;
  s.pc = pc;
  s.opcode = op;
  s.dst = {uint16_t(pc % 7)};
  s.src = {uint16_t(pc % 5), 255};
  s.mem_width = width;
  if (pc == 0x30) s.imm = "0x10";
  if (pc % 3 == 0) s.line = uint32_t(pc / 8);
  return s;
}

enum Op : uint32_t { S2R, IMAD, AFFINE, NEG, CONST, GATHER, LANEAFF, SINGLE, MASK0, NEAR, WRAP, BRA, EXIT };

std::vector<StaticInst> table() {
  return {inst(0x00, "S2R", 0),        inst(0x10, "IMAD", 0),      inst(0x20, "LDG.E.SYS", 4),
          inst(0x30, "LDG.E.64", 8),   inst(0x40, "STS", 4),       inst(0x50, "LDG.E.128", 16),
          inst(0x60, "ATOM.ADD", 4),   inst(0x70, "ST.E", 4),      inst(0x80, "LD.E", 4),
          inst(0x90, "LDG.E", 4),      inst(0xa0, "LDG.E", 4),     inst(0xb0, "BRA", 0),
          inst(0xc0, "EXIT", 0)};
}

}  // namespace

KernelTrace generate_kernel(const GenOptions& o) {
  std::mt19937_64 rng(o.seed);
  KernelTrace k;
  k.info.id = o.id;
  k.info.name = "_Z4testPfS_i";
  k.info.grid = o.grid;
  k.info.block = {o.warps * 32, 1, 1};
  k.info.binary_version = 70;
  k.info.tracer_version = 4;
  k.info.trace_file = "kernel-" + std::to_string(o.id) + ".traceg";
  k.table = table();
  uint64_t serial = 0;
  for (uint32_t z = 0; z < o.grid.z; ++z)
    for (uint32_t y = 0; y < o.grid.y; ++y)
      for (uint32_t x = 0; x < o.grid.x; ++x, ++serial) {
        CtaTrace c;
        c.kernel_id = o.id;
        c.cta = {x, y, z};
        // The last CTA runs a shorter loop: a warp sequence of its own.
        uint32_t iterations = serial + 1 == o.grid.volume() ? o.iterations / 2 : o.iterations;
        for (uint32_t wi = 0; wi < o.warps; ++wi) {
          WarpTrace w;
          w.warp_id = wi;
          uint64_t gw = serial * o.warps + wi;
          uint32_t full = wi + 1 == o.warps ? 0x00ffffffu : 0xffffffffu;
          auto add = [&](Op op, uint32_t mask, auto lane_addr) {
            w.inst.push_back(op);
            w.mask.push_back(mask);
            if (k.table[op].mem_width == 0) return;
            w.addr_mode.push_back(uint8_t(o.random_modes ? rng() % 3 : op % 3));
            // What Accel-Sim text keeps beyond the addresses: bases and (negative) strides.
            for (unsigned e = addr_extra_count(AddrMode(w.addr_mode.back()), mask); e > 0; --e)
              w.addr_extra.push_back(e == 2 ? 0x7f0000000000 + gw : uint64_t(-int64_t(e * 8)));
            for (uint32_t m = mask, lane; m; m &= m - 1) {
              lane = std::countr_zero(m);
              w.addrs.push_back(lane_addr(lane));
            }
          };
          auto none = [](uint32_t) { return uint64_t(0); };
          add(S2R, full, none);
          add(IMAD, full, none);
          for (uint64_t it = 0; it < iterations; ++it) {
            add(AFFINE, full, [&](uint32_t l) { return 0x7f0000000000 + gw * 128 + it * 4096 + l * 4; });
            add(NEG, full, [&](uint32_t l) { return 0x7f1000000000 - gw * 256 - it * 8 - l * 8; });
            add(CONST, full, [&](uint32_t) { return 0x100 + wi * 4; });
            // Odd warps gather from all of memory, even ones from a 16 MiB table.
            add(GATHER, full, [&](uint32_t) { return wi % 2 ? rng() : 0x7f3000000000 + rng() % (1 << 22) * 4; });
            add(LANEAFF, 0x55555555u & full, [&](uint32_t l) { return 0x7f2000000000 + gw * 512 + l * 4; });
            add(SINGLE, 1u << (gw % 32), [&](uint32_t) { return uint64_t(8); });
            add(MASK0, 0, none);
            add(NEAR, full, [&](uint32_t l) { return 0x1000 + l * 4 + (l == 7 ? 3 : 0) + it * 128; });
            add(WRAP, full, [&](uint32_t l) { return ~uint64_t(0) - 63 + l * 4; });
            add(BRA, it % 2 ? 0x0000ffffu & full : full, none);
          }
          add(EXIT, wi % 2 ? 0 : full, none);
          c.warps.push_back(std::move(w));
        }
        k.ctas.push_back(std::move(c));
      }
  return k;
}

}  // namespace sasskit::testing
