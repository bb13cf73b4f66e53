// Element-wise kernels: vector add (streaming, coalesced), gather (random
// reads through an index array) and a 2D 5-point stencil.
#include <algorithm>
#include <cmath>

#include "kernel_parts.hpp"
#include "rng.hpp"

namespace sasskit::gen {

namespace {

// The shared prologue: i = ctaid * ntid + tid, tested against n.
GuardedLoop element_prologue(Program& p) {
  GuardedLoop loop;
  const uint32_t begin = p.add("MOV", {1}, {});
  p.add("S2R", {0}, {});
  p.add("S2R", {3}, {});
  p.add(p.dialect().int_mad(), {0}, {0, 3});
  p.add("ISETP.GE.AND", {}, {0});
  loop.end_prologue(p, begin);
  return loop;
}

// A kernel over two input arrays and one output array of n floats, one
// element per thread and trip of a grid-stride loop; subclasses add the loop
// body between the shared prologue and the step.
class GridStrideKernel : public KernelModel {
 protected:
  struct Arrays {
    const char *first, *second, *out;  // buffer names
  };

  GridStrideKernel(const KernelParams& params, const Dialect& d, DeviceMemory& mem,
                   Arrays names, const char* mangled_name)
      : KernelModel(d, params), shape_(params, 1u << 20) {
    const uint64_t bytes = shape_.n * kFloat;
    first_ = mem.buffer(names.first, bytes, true);
    second_ = mem.buffer(names.second, bytes, true);
    out_ = mem.buffer(names.out, bytes, false);
    set_launch(mangled_name, {uint32_t(shape_.grid)}, {uint32_t(shape_.block)}, 0, 12);
    loop_ = element_prologue(program_);
  }

  // Emits the warp's trips; body(trip, mask, elem) with elem(lane, trip)
  // the element a lane works on.
  template <class Body>
  void emit_trips(uint64_t cta, uint32_t warp, WarpEmitter& em, Body body) const {
    const auto elem = [&](unsigned lane, uint32_t trip) {
      return shape_.element(cta, warp, lane, trip);
    };
    loop_.emit(
        em, warp_lanes(warp), trips(cta, uint32_t(shape_.iters)),
        [&](unsigned lane, uint32_t trip) { return elem(lane, trip) < shape_.n; },
        [&](uint32_t trip, uint32_t mask) { body(trip, mask, elem); });
  }

  GridStride shape_;
  uint64_t first_, second_, out_;
  GuardedLoop loop_;
};

// c[i] = a[i] + b[i]
class VecAdd : public GridStrideKernel {
 public:
  VecAdd(const KernelParams& params, const Dialect& d, DeviceMemory& mem)
      : GridStrideKernel(params, d, mem, {"vecadd.a", "vecadd.b", "vecadd.c"},
                         "_Z6vecaddPKfS0_Pfi") {
    addr_a_ = program_.wide_address(2, 0, 9);
    program_.wide_address(4, 0, 9);
    load_a_ = program_.load_global(kFloat, 2, 2);
    load_b_ = program_.load_global(kFloat, 4, 4);
    addr_c_ = program_.wide_address(6, 0, 9);
    program_.add("FADD", {9}, {2, 4});
    store_ = program_.store_global(kFloat, 6, 9);
    loop_.end_loop(program_, 0, 13);
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    emit_trips(cta, warp, em, [&](uint32_t trip, uint32_t mask, const auto& elem) {
      em.exec_range(addr_a_, load_a_, mask);
      em.access(load_a_, mask, [&](unsigned l) { return first_ + kFloat * elem(l, trip); });
      em.access(load_b_, mask, [&](unsigned l) { return second_ + kFloat * elem(l, trip); });
      em.exec_range(addr_c_, store_, mask);
      em.access(store_, mask, [&](unsigned l) { return out_ + kFloat * elem(l, trip); });
    });
  }

 private:
  uint32_t addr_a_, load_a_, load_b_, addr_c_, store_;
};

// out[i] = in[idx[i]]
class Gather : public GridStrideKernel {
 public:
  Gather(const KernelParams& params, const Dialect& d, DeviceMemory& mem)
      : GridStrideKernel(params, d, mem, {"gather.idx", "gather.in", "gather.out"},
                         "_Z6gatherPKfPKiPfi") {
    addr_idx_ = program_.wide_address(2, 0, 9);
    load_idx_ = program_.load_global(kFloat, 5, 2);
    addr_in_ = program_.wide_address(6, 5, 9);
    load_in_ = program_.load_global(kFloat, 6, 6);
    addr_out_ = program_.wide_address(2, 0, 9);
    store_ = program_.store_global(kFloat, 2, 6);
    loop_.end_loop(program_, 0, 11);
  }

 protected:
  // Indices are uniform over the input, drawn per CTA and warp from the seed.
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t seed, WarpEmitter& em) const override {
    Rng rng(derive_seed(seed, warp));
    emit_trips(cta, warp, em, [&](uint32_t trip, uint32_t mask, const auto& elem) {
      em.exec_range(addr_idx_, load_idx_, mask);
      em.access(load_idx_, mask, [&](unsigned l) { return first_ + kFloat * elem(l, trip); });
      em.exec_range(addr_in_, load_in_, mask);
      em.access(load_in_, mask, [&](unsigned) { return second_ + kFloat * rng.below(shape_.n); });
      em.exec_range(addr_out_, store_, mask);
      em.access(store_, mask, [&](unsigned l) { return out_ + kFloat * elem(l, trip); });
    });
  }

 private:
  uint32_t addr_idx_, load_idx_, addr_in_, load_in_, addr_out_, store_;
};

// out[y][x] = 0.125 * (N + S + E + W) + 0.5 * C on a side x side grid of
// floats: a CTA covers `block` columns and `iters` rows of the interior.
class Stencil : public KernelModel {
 public:
  Stencil(const KernelParams& params, const Dialect& d, DeviceMemory& mem)
      : KernelModel(d, params) {
    const uint64_t n = params.size ? params.size : 1u << 20;
    side_ = std::max<uint64_t>(3, matrix_side(n));
    block_ = params.block ? params.block : 256;
    rows_ = params.iters ? params.iters : 16;
    col_blocks_ = ceil_div(side_, block_);
    row_blocks_ = ceil_div(side_ - 2, rows_);
    const uint64_t grid = params.grid ? params.grid : col_blocks_ * row_blocks_;
    in_ = mem.buffer("stencil.in", side_ * side_ * kFloat, true);
    out_ = mem.buffer("stencil.out", side_ * side_ * kFloat, false);
    set_launch("_Z7stencilPKfPfi", {checked_u32(grid, "grid")}, {uint32_t(block_)}, 0, 16);

    auto& p = program_;
    const uint32_t begin = p.add("MOV", {1}, {});
    p.add("S2R", {0}, {});
    p.add("S2R", {3}, {});
    p.add(p.dialect().int_mad(), {0}, {0, 3});
    p.add(p.dialect().int_mad(), {2}, {5, 0});
    p.add("ISETP.GE.AND", {}, {0});
    p.add("ISETP.LT.OR", {}, {0});
    loop_.end_prologue(p, begin);
    addr_in_ = p.wide_address(6, 2, 9);
    for (uint16_t r = 0; r < 5; ++r) loads_[r] = p.load_global(kFloat, 10 + r, 6);
    math_ = p.add("FADD", {11}, {11, 13});
    p.add("FADD", {10}, {10, 14});
    p.add("FADD", {10}, {10, 11});
    p.add("FMUL", {12}, {12});
    p.wide_address(6, 2, 9);
    p.add("FFMA", {15}, {10, 12});
    store_ = p.store_global(kFloat, 6, 15);
    loop_.end_loop(p, 2, 5);
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint64_t col0 = cta % col_blocks_ * block_ + warp * 32;
    const uint64_t row0 = 1 + cta / col_blocks_ % row_blocks_ * rows_;
    const auto rows = uint32_t(std::min<uint64_t>(rows_, side_ - 1 - row0));
    const uint32_t n_trips = trips(cta, rows);
    // Heavy CTAs sweep their rows again.
    const auto at = [&](unsigned lane, uint32_t trip, int64_t dy, int64_t dx) {
      const uint64_t y = row0 + trip % rows;
      return (y + dy) * side_ + col0 + lane + dx;
    };
    const int64_t offsets[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
    loop_.emit(
        em, warp_lanes(warp), n_trips,
        [&](unsigned lane, uint32_t trip) {
          const uint64_t x = col0 + lane;
          return trip < n_trips && x >= 1 && x + 1 < side_;
        },
        [&](uint32_t trip, uint32_t mask) {
          em.exec_range(addr_in_, loads_[0], mask);
          for (int r = 0; r < 5; ++r)
            em.access(loads_[r], mask, [&](unsigned l) {
              return in_ + kFloat * at(l, trip, offsets[r][0], offsets[r][1]);
            });
          em.exec_range(math_, store_, mask);
          em.access(store_, mask, [&](unsigned l) { return out_ + kFloat * at(l, trip, 0, 0); });
        });
  }

 private:
  uint64_t side_, block_, rows_, col_blocks_, row_blocks_;
  uint64_t in_, out_;
  GuardedLoop loop_;
  uint32_t addr_in_, loads_[5], math_, store_;
};

}  // namespace

std::unique_ptr<KernelModel> make_vecadd(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<VecAdd>(p, d, m);
}
std::unique_ptr<KernelModel> make_gather(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<Gather>(p, d, m);
}
std::unique_ptr<KernelModel> make_stencil(const KernelParams& p, const Dialect& d,
                                          DeviceMemory& m) {
  return std::make_unique<Stencil>(p, d, m);
}

}  // namespace sasskit::gen
