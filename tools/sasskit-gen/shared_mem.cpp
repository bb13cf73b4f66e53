// Kernels built on shared memory and __syncthreads(): a tiled SGEMM and a
// tree reduction whose active lanes halve each step (divergent branches).
#include <bit>
#include <cmath>

#include "kernel_parts.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::gen {

namespace {

// C = A * B for N x N floats (N * N = --size) with T x T tiles staged in
// shared memory; a block of T*T threads computes one tile of C, one k-tile
// per trip (N / T trips unless --iters says otherwise).
class Gemm : public KernelModel {
 public:
  Gemm(const KernelParams& params, const Dialect& d, DeviceMemory& mem) : KernelModel(d, params) {
    const uint32_t block = params.block ? params.block : 256;
    if (block != 64 && block != 256 && block != 1024)
      fail_usage("gemm needs a square tile: --block 64, 256 or 1024 (8x8, 16x16, 32x32)");
    tile_ = uint32_t(std::sqrt(double(block)));  // exact for these squares
    n_ = ceil_div(matrix_side(params.size ? params.size : 128 * 128), tile_) * tile_;
    k_tiles_ = params.iters ? params.iters : uint32_t(n_ / tile_);
    const uint32_t side = params.grid ? params.grid : checked_u32(n_ / tile_, "grid");
    const uint64_t bytes = n_ * n_ * kFloat;
    a_ = mem.buffer("gemm.a", bytes, true);
    b_ = mem.buffer("gemm.b", bytes, true);
    c_ = mem.buffer("gemm.c", bytes, false);
    set_launch("_Z4gemmPKfS0_Pfi", {side, side}, {tile_, tile_}, 2 * block * kFloat, 40);
    build();
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint64_t bx = cta % info_.grid.x, by = cta / info_.grid.x % info_.grid.y;
    const uint32_t T = tile_;
    const auto ty = [&](unsigned l) { return (warp * 32 + l) / T; };
    const auto tx = [&](unsigned l) { return (warp * 32 + l) % T; };
    const auto row = [&](unsigned l) { return (by * T + ty(l)) % n_; };
    const auto col = [&](unsigned l) { return (bx * T + tx(l)) % n_; };
    const uint64_t as = kSharedBase, bs = kSharedBase + uint64_t(T) * T * kFloat;
    const uint32_t all = warp_lanes(warp);

    em.exec_range(0, load_a_, all);
    loop_.emit(em, all, trips(cta, k_tiles_), [&](uint32_t trip) {
      const uint64_t k0 = uint64_t(trip) * T % n_;
      em.access(load_a_, all, [&](unsigned l) { return a_ + kFloat * (row(l) * n_ + k0 + tx(l)); });
      em.access(load_a_ + 1, all,
                [&](unsigned l) { return b_ + kFloat * ((k0 + ty(l)) * n_ + col(l)); });
      em.access(store_as_, all, [&](unsigned l) { return as + kFloat * (ty(l) * T + tx(l)); });
      em.access(store_as_ + 1, all, [&](unsigned l) { return bs + kFloat * (ty(l) * T + tx(l)); });
      em.exec(store_as_ + 2, all);  // BAR.SYNC
      uint32_t inst = store_as_ + 3;
      for (uint32_t j = 0; j < T; j += 4) {
        em.access(inst++, all, [&](unsigned l) { return as + kFloat * (ty(l) * T + j); });
        for (uint32_t q = 0; q < 4; ++q)
          em.access(inst++, all, [&](unsigned l) { return bs + kFloat * ((j + q) * T + tx(l)); });
        em.exec_range(inst, inst + 4, all);  // FFMA x4
        inst += 4;
      }
      em.exec(inst, all);  // BAR.SYNC
    });
    em.exec_range(loop_.branch + 1, store_c_, all);
    em.access(store_c_, all, [&](unsigned l) { return c_ + kFloat * (row(l) * n_ + col(l)); });
    em.exec(store_c_ + 1, all);  // EXIT
  }

 private:
  void build() {
    auto& p = program_;
    const std::string mad = p.dialect().int_mad();
    p.add("MOV", {1}, {});
    p.add("S2R", {0}, {});
    p.add("S2R", {2}, {});
    p.add("S2R", {3}, {});
    p.add("S2R", {4}, {});
    p.add(mad, {5}, {4, 2});
    p.add(mad, {6}, {3, 0});
    p.add(mad, {7}, {5, 0});
    p.add("SHF.L.U32", {8}, {2, RZ});
    p.add(mad, {9}, {2, 0});
    p.add("SHF.L.U32", {18}, {0, RZ});
    p.wide_address(10, 7, 12);
    p.wide_address(14, 6, 12);
    p.add("MOV", {20}, {});
    load_a_ = p.load_global(kFloat, 16, 10);
    p.load_global(kFloat, 17, 14);
    store_as_ = p.store_shared(kFloat, 9, 16);
    p.store_shared(kFloat, 9, 17);
    p.add(p.dialect().barrier(), {}, {});
    for (uint32_t j = 0; j < tile_; j += 4) {
      p.load_shared(16, 24, 8);
      for (uint16_t q = 0; q < 4; ++q) p.load_shared(kFloat, 28 + q, 18);
      for (uint16_t q = 0; q < 4; ++q)
        p.add("FFMA", {20}, {uint16_t(24 + q), uint16_t(28 + q), 20});
    }
    p.add(p.dialect().barrier(), {}, {});
    loop_.step_begin = p.add(p.dialect().int_add(), {10}, {10, RZ, RZ});
    p.add(p.dialect().int_add(), {14}, {14, 12, RZ});
    p.add("ISETP.GE.AND", {}, {10});
    loop_.branch = p.add("BRA", {}, {});
    p.add(mad, {22}, {5, 6});
    p.wide_address(22, 22, 12);
    store_c_ = p.store_global(kFloat, 22, 20);
    p.add("EXIT", {}, {});
  }

  uint32_t tile_, k_tiles_;
  uint64_t n_, a_, b_, c_;
  CountedLoop loop_;
  uint32_t load_a_ = 0, store_as_ = 0, store_c_ = 0;
};

// Per CTA: each thread sums its grid-stride elements, the block adds the
// partial sums in shared memory in log2(block) halving steps (threads
// t < stride add s[t + stride]), thread 0 writes the CTA's result.
class Reduce : public KernelModel {
 public:
  Reduce(const KernelParams& params, const Dialect& d, DeviceMemory& mem)
      : KernelModel(d, params), shape_(params, 1u << 20) {
    if (shape_.block < 32 || !std::has_single_bit(shape_.block))
      fail_usage("reduce needs a power-of-two block of 32 to 1024 threads");
    in_ = mem.buffer("reduce.in", shape_.n * kFloat, true);
    out_ = mem.buffer("reduce.out", shape_.grid * kFloat, false);
    set_launch("_Z6reducePKfPf", {uint32_t(shape_.grid)}, {uint32_t(shape_.block)},
               uint32_t(shape_.block * kFloat), 10);
    build();
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint32_t all = warp_lanes(warp);
    const auto tid = [&](unsigned l) { return warp * 32 + l; };
    const uint32_t n_trips = trips(cta, uint32_t(shape_.iters));
    const auto in_range = [&](unsigned l, uint32_t trip) {
      return trip < n_trips && shape_.element(cta, warp, l, trip) < shape_.n;
    };

    em.exec_range(0, skip_sum_, all);
    uint32_t mask = lanes_where(all, [&](unsigned l) { return in_range(l, 0); });
    em.exec(skip_sum_, all & ~mask);
    for (uint32_t trip = 0; mask != 0; ++trip) {
      em.exec_range(sum_begin_, sum_load_, mask);
      em.access(sum_load_, mask,
                [&](unsigned l) { return in_ + kFloat * shape_.element(cta, warp, l, trip); });
      em.exec_range(sum_load_ + 1, sum_branch_, mask);
      const uint32_t next = lanes_where(mask, [&](unsigned l) { return in_range(l, trip + 1); });
      em.exec(sum_branch_, next);
      mask = next;
    }
    em.exec(publish_, all);  // SHF.L.U32
    em.access(publish_ + 1, all, [&](unsigned l) { return kSharedBase + kFloat * tid(l); });
    em.exec(publish_ + 2, all);  // BAR.SYNC

    for (uint64_t stride = shape_.block / 2; stride > 0; stride /= 2) {
      const uint32_t adders = lanes_where(all, [&](unsigned l) { return tid(l) < stride; });
      em.exec_range(step_, step_ + 2, all);  // ISETP, BSSY
      em.exec(step_ + 2, all & ~adders);     // @P0 BRA past the addition
      if (adders != 0) {
        em.access(step_ + 3, adders,
                  [&](unsigned l) { return kSharedBase + kFloat * (tid(l) + stride); });
        em.access(step_ + 4, adders, [&](unsigned l) { return kSharedBase + kFloat * tid(l); });
        em.exec(step_ + 5, adders);
        em.access(step_ + 6, adders, [&](unsigned l) { return kSharedBase + kFloat * tid(l); });
      }
      em.exec_range(step_ + 7, step_ + 11, all);  // BSYNC, SHF, BAR.SYNC, ISETP
      em.exec(step_ + 11, stride > 1 ? all : 0);  // back edge
    }
    const uint32_t leader = warp == 0 ? 1u : 0u;
    em.exec(finish_, all);                // ISETP.NE.AND
    em.exec(finish_ + 1, all & ~leader);  // @P0 EXIT
    if (leader == 0) return;
    em.access(result_load_, leader, [](unsigned) { return kSharedBase; });
    em.exec_range(result_load_ + 1, result_store_, leader);
    em.access(result_store_, leader, [&](unsigned) { return out_ + kFloat * cta; });
    em.exec(result_store_ + 1, leader);  // EXIT
  }

 private:
  void build() {
    auto& p = program_;
    const Dialect& d = p.dialect();
    p.add("MOV", {1}, {});
    p.add("S2R", {0}, {});
    p.add("S2R", {3}, {});
    p.add(d.int_mad(), {2}, {3, 0});
    p.add("MOV", {6}, {});
    p.add("ISETP.GE.AND", {}, {2});
    skip_sum_ = p.add("BRA", {}, {});
    sum_begin_ = p.wide_address(4, 2, 9);
    sum_load_ = p.load_global(kFloat, 5, 4);
    p.add("FADD", {6}, {6, 5});
    p.add(d.int_add(), {2}, {2, 11, RZ});
    p.add("ISETP.GE.AND", {}, {2});
    sum_branch_ = p.add("BRA", {}, {});
    publish_ = p.add("SHF.L.U32", {7}, {0, RZ});
    p.store_shared(kFloat, 7, 6);
    p.add(d.barrier(), {}, {});
    step_ = p.add("ISETP.GE.AND", {}, {0, 8});
    p.add(d.converge_begin(), {}, {});
    p.add("BRA", {}, {});
    p.load_shared(kFloat, 9, 7);
    p.load_shared(kFloat, 10, 7);
    p.add("FADD", {10}, {9, 10});
    p.store_shared(kFloat, 7, 10);
    p.add(d.converge_end(), {}, {});
    p.add("SHF.R.U32.HI", {8}, {RZ, 8});
    p.add(d.barrier(), {}, {});
    p.add("ISETP.NE.AND", {}, {8});
    p.add("BRA", {}, {});
    finish_ = p.add("ISETP.NE.AND", {}, {0});
    p.add("EXIT", {}, {});
    result_load_ = p.load_shared(kFloat, 11, RZ);
    p.wide_address(12, 3, 9);
    result_store_ = p.store_global(kFloat, 12, 11);
    p.add("EXIT", {}, {});
  }

  GridStride shape_;
  uint64_t in_, out_;
  uint32_t skip_sum_ = 0, sum_begin_ = 0, sum_load_ = 0, sum_branch_ = 0;
  uint32_t publish_ = 0, step_ = 0, finish_ = 0, result_load_ = 0, result_store_ = 0;
};

}  // namespace

std::unique_ptr<KernelModel> make_gemm(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<Gemm>(p, d, m);
}
std::unique_ptr<KernelModel> make_reduce(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<Reduce>(p, d, m);
}

}  // namespace sasskit::gen
