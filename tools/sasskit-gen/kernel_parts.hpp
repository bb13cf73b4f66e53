// Internal to the kernels: the factories of each kind and the loop shape the
// element-wise kernels share.
#pragma once

#include <bit>

#include "kernels.hpp"

namespace sasskit::gen {

std::unique_ptr<KernelModel> make_vecadd(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_gather(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_stencil(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_gemm(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_reduce(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_tensor(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_empty(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_ffma(const KernelParams&, const Dialect&, DeviceMemory&);
std::unique_ptr<KernelModel> make_wgmma(const KernelParams&, const Dialect&, DeviceMemory&);

template <class Pred>
uint32_t lanes_where(uint32_t mask, Pred pred) {
  uint32_t out = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    if (pred(lane)) out |= 1u << lane;
  }
  return out;
}

uint64_t ceil_div(uint64_t a, uint64_t b);
uint32_t checked_u32(uint64_t v, const std::string& what);
// The side of the smallest square matrix with at least `elements` elements.
uint64_t matrix_side(uint64_t elements);

inline constexpr uint32_t kFloat = 4;

// One thread per element in a grid-stride loop: element
// (cta * block + thread + trip * grid * block), wrapping for heavy CTAs.
// Defaults: 256 threads, one trip, as many CTAs as that takes.
struct GridStride {
  uint64_t n = 0, block = 0, grid = 0, iters = 0;

  GridStride(const KernelParams& p, uint64_t default_n);
  uint64_t element(uint64_t cta, uint32_t warp, unsigned lane, uint32_t trip) const {
    const uint64_t stride = grid * block;
    const uint64_t e = cta * block + warp * 32 + lane + trip * stride;
    return trip < iters ? e : e % (stride * iters);  // only heavy CTAs wrap
  }
};

// A loop every lane of the warp runs the same number of trips: per trip a
// body, then a step [step_begin, branch) and the back-edge BRA at `branch`.
struct CountedLoop {
  uint32_t step_begin = 0, branch = 0;

  template <class Body>
  void emit(WarpEmitter& em, uint32_t mask, uint32_t trips, Body body) const {
    for (uint32_t trip = 0; trip < trips; ++trip) {
      body(trip);
      em.exec_range(step_begin, branch, mask);
      em.exec(branch, trip + 1 < trips ? mask : 0);
    }
  }
};

// A guarded loop: a prologue ending in the bounds test, `@P0 EXIT` for the
// lanes out of range, then per trip a body and a step (index update and
// test) closed by a back-edge BRA, and a final EXIT. Lanes whose next trip
// is out of range leave through the EXIT.
struct GuardedLoop {
  uint32_t prologue_begin = 0, exit_early = 0;  // prologue = [begin, exit_early)
  uint32_t step_begin = 0, branch = 0;          // step = [step_begin, branch)
  uint32_t exit = 0;

  // Adds `@P0 EXIT` after the prologue already in `p`, which began at `begin`.
  void end_prologue(Program& p, uint32_t begin);
  // Adds the step after the body: `index_reg += stride`, test, BRA; then EXIT.
  void end_loop(Program& p, uint16_t index_reg, uint16_t stride_reg);

  // in_range(lane, trip) says whether a lane works on that trip;
  // body(trip, mask) emits one trip's body.
  template <class InRange, class Body>
  void emit(WarpEmitter& em, uint32_t active, uint32_t trips, InRange in_range, Body body) const {
    uint32_t mask = lanes_where(active, [&](unsigned l) { return in_range(l, 0u); });
    em.exec_range(prologue_begin, exit_early, active);
    em.exec(exit_early, active & ~mask);
    for (uint32_t trip = 0; mask != 0; ++trip) {
      body(trip, mask);
      const uint32_t next =
          trip + 1 < trips ? lanes_where(mask, [&](unsigned l) { return in_range(l, trip + 1); })
                           : 0;
      em.exec_range(step_begin, branch, mask);
      em.exec(branch, next);
      if (next != mask) em.exec(exit, mask & ~next);
      mask = next;
    }
  }
};

}  // namespace sasskit::gen
