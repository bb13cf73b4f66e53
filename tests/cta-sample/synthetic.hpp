// Synthetic kernels for cta-sample's tests: CTA i's warps each run one
// IMAD, `work` FFMAs, one LDG (32 lanes) and EXIT.
#pragma once

#include "formats/records.hpp"

inline sasskit::KernelInfo synthetic_kernel(uint32_t id, uint32_t grid, uint32_t block) {
  sasskit::KernelInfo k;
  k.id = id;
  k.name = "k";
  k.name += std::to_string(id);  // not "k" + ...: GCC 12 warns falsely (-Wrestrict)
  k.grid = {grid, 1, 1};
  k.block = {block, 1, 1};
  k.nregs = 32;
  k.binary_version = 70;
  k.tracer_version = 4;
  return k;
}

inline sasskit::InstTable synthetic_table(uint32_t kernel) {
  sasskit::InstTable t;
  t.kernel_id = kernel;
  t.insts = {{0x10, std::nullopt, "IMAD", {2}, {0, 1}, 0, std::nullopt},
             {0x20, std::nullopt, "FFMA", {4}, {4, 2, 4}, 0, std::nullopt},
             {0x30, std::nullopt, "LDG.E.SYS", {6}, {8}, 4, std::nullopt},
             {0x40, std::nullopt, "EXIT", {}, {}, 0, std::nullopt}};
  return t;
}

inline sasskit::CtaTrace synthetic_cta(uint32_t kernel, uint32_t index, uint32_t warps, uint32_t work) {
  sasskit::CtaTrace c;
  c.kernel_id = kernel;
  c.cta = {index, 0, 0};
  for (uint32_t w = 0; w < warps; ++w) {
    sasskit::WarpTrace t;
    t.warp_id = w;
    t.inst.push_back(0);
    t.inst.insert(t.inst.end(), work, 1);
    t.inst.push_back(2);
    t.inst.push_back(3);
    t.mask.assign(t.inst.size(), 0xffffffffu);
    t.addr_mode = {1};
    for (uint64_t lane = 0; lane < 32; ++lane)
      t.addrs.push_back(0x7f0000000000 + (uint64_t(index) * warps + w) * 128 + lane * 4);
    c.warps.push_back(std::move(t));
  }
  return c;
}
