// What CTAs hold of an SM, for the kernels of different streams that share
// one (libcommon/cta_schedule.hpp, pipe-sim's timeline). Defined beside
// occupancy() in occupancy.cpp, whose allocation rules it follows.
#pragma once

#include <cstdint>

#include "libcommon/gpu_config.hpp"

namespace sasskit {

// What CTAs hold of an SM, in the units occupancy() allocates: CTA slots,
// warps, registers and shared memory. CTAs of kernels of different streams
// share an SM up to all four (CUDA's concurrent kernel execution).
struct SmLoad {
  uint64_t ctas = 0, warps = 0, regs = 0, smem = 0;
  // Inline: the CTA scheduler adds and compares loads for every SM at
  // every CTA it places.
  SmLoad& operator+=(const SmLoad& o) {
    ctas += o.ctas;
    warps += o.warps;
    regs += o.regs;
    smem += o.smem;
    return *this;
  }
  SmLoad& operator-=(const SmLoad& o) {
    ctas -= o.ctas;
    warps -= o.warps;
    regs -= o.regs;
    smem -= o.smem;
    return *this;
  }
  SmLoad times(uint64_t n) const { return {ctas * n, warps * n, regs * n, smem * n}; }
  bool operator==(const SmLoad&) const = default;
};

// One CTA's load, as occupancy() rounds it (registers per warp, shared
// memory with the per-CTA reservation).
SmLoad cta_load(const GpuConfig& gpu, const CtaResources& cta);
// An SM's resources; the shared memory is the largest selectable carve-out
// (the driver picks one that holds the resident CTAs).
SmLoad sm_capacity(const GpuConfig& gpu);
inline bool within(const SmLoad& load, const SmLoad& capacity) {
  return load.ctas <= capacity.ctas && load.warps <= capacity.warps && load.regs <= capacity.regs &&
         load.smem <= capacity.smem;
}

}  // namespace sasskit
