// A tensor-core GEMM loop as wmma compiles it: per k-step each warp loads a
// 16x16 half fragment of A (row-major) and B (column-major) and issues the
// HMMA sequence of one 16x16x16 product; C (float) is stored at the end.
// The matrices are N x N with N * N = --size.
#include "kernel_parts.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::gen {

namespace {

constexpr uint32_t kHalf = 2;
constexpr uint32_t kTile = 16;

class Tensor : public KernelModel {
 public:
  Tensor(const KernelParams& params, const Dialect& d, DeviceMemory& mem) : KernelModel(d, params) {
    const uint32_t block = params.block ? params.block : 128;
    if (block % 32 != 0) fail_usage("tensor needs whole warps: --block a multiple of 32");
    warps_ = block / 32;
    n_ = ceil_div(matrix_side(params.size ? params.size : 256 * 256), kTile) * kTile;
    tiles_per_row_ = n_ / kTile;
    k_steps_ = params.iters ? params.iters : uint32_t(tiles_per_row_);
    const uint64_t grid =
        params.grid ? params.grid : ceil_div(tiles_per_row_ * tiles_per_row_, warps_);
    a_ = mem.buffer("tensor.a", n_ * n_ * kHalf, true);
    b_ = mem.buffer("tensor.b", n_ * n_ * kHalf, true);
    c_ = mem.buffer("tensor.c", n_ * n_ * kFloat, false);
    set_launch("_Z16wmma_gemm_kernelP6__halfS0_Pfi", {checked_u32(grid, "grid")}, {block}, 0, 90);
    build();
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint64_t tile = (cta * warps_ + warp) % (tiles_per_row_ * tiles_per_row_);
    const uint64_t row0 = tile / tiles_per_row_ * kTile, col0 = tile % tiles_per_row_ * kTile;
    const uint32_t all = kFullMask;
    em.exec_range(0, load_a_, all);
    loop_.emit(em, all, trips(cta, k_steps_), [&](uint32_t trip) {
      const uint64_t k0 = uint64_t(trip) % tiles_per_row_ * kTile;
      // Lane l holds 8 halves: row (or column) l % 16, k offset 8 * (l / 16).
      em.access(load_a_, all, [&](unsigned l) {
        return a_ + kHalf * ((row0 + l % 16) * n_ + k0 + 8 * (l / 16));
      });
      em.access(load_a_ + 1, all, [&](unsigned l) {
        return b_ + kHalf * ((col0 + l % 16) * n_ + k0 + 8 * (l / 16));
      });
      em.exec_range(load_a_ + 2, loop_.step_begin, all);  // HMMA
    });
    em.exec_range(loop_.branch + 1, store_c_, all);
    // The accumulator fragment: lane l holds 2 floats of row l / 4 (+ 8) and
    // columns 2 * (l % 4) (+ 8), one 64-bit store per quarter.
    for (uint32_t q = 0; q < 4; ++q)
      em.access(store_c_ + q, all, [&](unsigned l) {
        const uint64_t row = row0 + l / 4 + 8 * (q % 2), col = col0 + 2 * (l % 4) + 8 * (q / 2);
        return c_ + kFloat * (row * n_ + col);
      });
    em.exec(store_c_ + 4, all);  // EXIT
  }

 private:
  void build() {
    auto& p = program_;
    const Dialect& d = p.dialect();
    const std::vector<std::string> mma = d.mma_16x16x16();  // refuses sm_61
    p.add("MOV", {1}, {});
    p.add("S2R", {0}, {});
    p.add("S2R", {83}, {});
    p.add(d.int_mad(), {83}, {83, 0});
    p.add("SHF.R.U32.HI", {84}, {RZ, 0});
    p.add(d.int_mad(), {85}, {84, 83});
    p.wide_address(86, 85, 3);
    p.wide_address(12, 84, 3);
    const uint16_t acc[4] = {8, 10, 4, 6};
    for (uint16_t r : acc) p.add("MOV", {r}, {});
    load_a_ = p.load_global(16, 72, 86);
    p.load_global(16, 64, 12);
    for (size_t i = 0; i < mma.size(); ++i) {
      const auto pair = uint16_t(2 * (i / 4 % 2));
      p.add(mma[i], {acc[i % 4]}, {uint16_t(72 + pair), uint16_t(64 + pair), acc[i % 4]});
    }
    loop_.step_begin = p.add(d.int_add(), {86}, {86, RZ, RZ});
    p.add(d.int_add(), {12}, {12, RZ, RZ});
    p.add("ISETP.GE.AND", {}, {86});
    loop_.branch = p.add("BRA", {}, {});
    p.wide_address(14, 85, 3);
    store_c_ = p.store_global(8, 14, acc[0]);
    for (int q = 1; q < 4; ++q) p.store_global(8, 14, acc[q]);
    p.add("EXIT", {}, {});
  }

  uint32_t warps_ = 0, k_steps_ = 0;
  uint64_t n_ = 0, tiles_per_row_ = 0, a_ = 0, b_ = 0, c_ = 0;
  CountedLoop loop_;
  uint32_t load_a_ = 0, store_c_ = 0;
};

}  // namespace

std::unique_ptr<KernelModel> make_tensor(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<Tensor>(p, d, m);
}

}  // namespace sasskit::gen
