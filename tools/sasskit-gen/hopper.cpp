// The launch and issue checks (an empty kernel, an FFMA loop) and Hopper's
// asynchronous GEMM main loop: a warpgroup whose one thread copies the tiles
// into shared memory with the tensor memory accelerator (UTMALDG, completing
// on an mbarrier) while the warpgroup multiplies the tiles already there
// with warpgroup MMAs (HGMMA), `--stages` tiles in flight.
#include "kernel_parts.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::gen {

namespace {

// One EXIT per warp: what launching and retiring a CTA costs.
class Empty : public KernelModel {
 public:
  Empty(const KernelParams& params, const Dialect& d) : KernelModel(d, params) {
    set_launch("_Z12empty_kernelv", {params.grid ? params.grid : 1024}, {params.block ? params.block : 256}, 0,
               16);
    program_.add("EXIT", {}, {});
  }

 protected:
  void fill_warp(uint64_t, uint32_t warp, uint64_t, WarpEmitter& em) const override { em.exec(0, warp_lanes(warp)); }
};

// Per trip 16 FFMAs, each on the one before (a thread's single dependent
// chain; the unrolling is this generator's choice), then the loop step: with
// one warp it times the FFMA latency, with enough warps to hide it the rate
// the SM issues them (issue 56's two FFMA checks).
class Ffma : public KernelModel {
 public:
  Ffma(const KernelParams& params, const Dialect& d) : KernelModel(d, params) {
    set_launch("_Z11ffma_kernelPfi", {params.grid ? params.grid : 1}, {params.block ? params.block : 1024}, 0, 16);
    trips_ = params.iters ? params.iters : 256;
    auto& p = program_;
    p.add("S2R", {0}, {});
    p.add("MOV", {8}, {});
    body_ = p.size();
    for (int k = 0; k < 16; ++k) p.add("FFMA", {8}, {8, 2, 3});
    loop_.step_begin = p.add(d.int_add(), {1}, {1, RZ, RZ});
    p.add("ISETP.GE.AND", {}, {1});
    loop_.branch = p.add("BRA", {}, {});
    exit_ = p.add("EXIT", {}, {});
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint32_t lanes = warp_lanes(warp);
    em.exec_range(0, body_, lanes);
    loop_.emit(em, lanes, trips(cta, trips_), [&](uint32_t) { em.exec_range(body_, loop_.step_begin, lanes); });
    em.exec(exit_, lanes);
  }

 private:
  uint32_t trips_ = 0, body_ = 0, exit_ = 0;
  CountedLoop loop_;
};

constexpr uint32_t kHalf = 2;
constexpr uint32_t kTileM = 64, kTileN = 256, kTileK = 64;  // one warpgroup's C tile, one k-tile
constexpr uint32_t kBox = 64;                               // a TMA box: 64 x 64 halves, 8 KB
constexpr uint32_t kBoxBytes = kBox * kBox * kHalf;
constexpr uint32_t kBoxesA = kTileM / kBox, kBoxesB = kTileN / kBox;
constexpr uint32_t kStageBytes = (kBoxesA + kBoxesB) * kBoxBytes;
constexpr uint32_t kMmasPerTile = kTileK / 16;  // HGMMA.64x256x16
constexpr uint32_t kStores = 32;                // a warp's 16 rows of C, two 512-byte stores a row

// C (M x N floats) = A (M x K) x B (K x N) in halves, M = N = K = the side
// of --size, one 64 x 256 tile of C per CTA of one warpgroup (128 threads).
// A and B are stored box by box (each 64 x 64 box of halves contiguous), so
// that a TMA box is one run of bytes: each UTMALDG is written as one lane
// whose address is the box's first byte and whose width is the box's 8 KB.
// Warp 0's first lane is the producer: it starts each stage's phase
// (mbarrier.arrive.expect_tx) and copies the stage's A and B boxes; every
// warp waits for the phase (mbarrier.try_wait), multiplies the tile with
// four HGMMA.64x256x16 (wgmma.fence, the MMAs, then wgmma.wait_group 0),
// and then the producer refills the stage it used with the tile `stages`
// ahead. With one stage nothing overlaps: a copy starts once the MMAs of
// the tile before are done.
class WgmmaGemm : public KernelModel {
 public:
  WgmmaGemm(const KernelParams& params, const Dialect& d, DeviceMemory& mem) : KernelModel(d, params) {
    if (d.version() < 90) fail_usage("wgmma needs --binary-version 90 (warpgroup MMA and TMA are Hopper's)");
    if (params.block && params.block != 128) fail_usage("wgmma runs one warpgroup per CTA: --block 128");
    stages_ = params.stages ? params.stages : 2;
    if (stages_ * kStageBytes > 227 * 1024)
      fail_usage("wgmma: " + std::to_string(stages_) + " stages of " + std::to_string(kStageBytes / 1024) +
                 " KB exceed the 227 KB of shared memory a CTA may have");
    n_ = ceil_div(matrix_side(params.size ? params.size : 1024 * 1024), kTileN) * kTileN;
    k_tiles_ = params.iters ? params.iters : uint32_t(n_ / kTileK);
    tiles_n_ = n_ / kTileN;
    const uint64_t tiles = (n_ / kTileM) * tiles_n_;
    a_ = mem.buffer("wgmma.a", n_ * n_ * kHalf, true);
    b_ = mem.buffer("wgmma.b", n_ * n_ * kHalf, true);
    c_ = mem.buffer("wgmma.c", n_ * n_ * kFloat, false);
    const uint32_t smem = stages_ * kStageBytes + 1024;  // the tiles and the mbarriers
    set_launch("_Z11wgmma_gemmP6__halfS0_Pfi", {params.grid ? params.grid : checked_u32(tiles, "grid")}, {128},
               smem, 168);
    build();
  }

 protected:
  void fill_warp(uint64_t cta, uint32_t warp, uint64_t, WarpEmitter& em) const override {
    const uint64_t tile = cta % ((n_ / kTileM) * tiles_n_);
    const uint64_t row0 = tile / tiles_n_ * kTileM, col0 = tile % tiles_n_ * kTileN;
    const uint32_t all = kFullMask, producer = warp == 0 ? 1u : 0u;
    const uint32_t k_tiles = trips(cta, k_tiles_);
    em.exec_range(0, prologue_.arrive, all);
    for (uint32_t s = 0; s < stages_ && s < k_tiles; ++s) copy_stage(em, prologue_, producer, row0, col0, s, s);
    for (uint32_t k = 0; k < k_tiles; ++k) {
      const uint32_t stage = k % stages_;
      em.access(wait_, all, [&](unsigned) { return barrier(stage); });
      em.exec_range(wait_ + 1, refill_.arrive, all);  // WARPGROUP.ARRIVE, the HGMMAs, WARPGROUP.DEPBAR
      if (k + stages_ < k_tiles) copy_stage(em, refill_, producer, row0, col0, k + stages_, stage);
      em.exec_range(refill_.copy_b + 1, branch_, all);
      em.exec(branch_, k + 1 < k_tiles ? all : 0);
    }
    em.exec_range(branch_ + 1, store_, all);
    // Warp w's quarter of C: rows w * 16 to w * 16 + 15, a row of 256 floats
    // in two stores of 4 floats a lane.
    for (uint32_t q = 0; q < kStores; ++q)
      em.access(store_ + q, all, [&](unsigned l) {
        const uint64_t row = row0 + warp * 16 + q / 2, col = col0 + (q % 2) * 128 + l * 4;
        return c_ + kFloat * (row * n_ + col);
      });
    em.exec(store_ + kStores, all);  // EXIT
  }

 private:
  uint64_t barrier(uint32_t stage) const { return kSharedBase + uint64_t(stages_) * kStageBytes + 8 * stage; }
  // Box (r, c) of a box-by-box matrix of n_ x n_ halves.
  uint64_t box(uint64_t base, uint64_t r, uint64_t c) const {
    return base + (r * (n_ / kBox) + c) * kBoxBytes;
  }

  // The producer's code that fills a stage: the phase's arrive, then the
  // copies of A's and B's boxes (the prologue's and the loop's).
  struct StageCopy {
    uint32_t arrive = 0, copy_a = 0, copy_b = 0;
  };
  StageCopy add_stage_copy() {
    StageCopy c;
    c.arrive = program_.add("SYNCS.ARRIVE.TRANS64.A1T0", {}, {}, 8);
    c.copy_a = program_.add("UTMALDG.2D", {}, {}, kBoxBytes);
    c.copy_b = program_.add("UTMALDG.2D", {}, {}, kBoxBytes);
    return c;
  }

  // The producer's copy of k-tile `k` into stage `stage`.
  void copy_stage(WarpEmitter& em, const StageCopy& code, uint32_t producer, uint64_t row0, uint64_t col0,
                  uint32_t k, uint32_t stage) const {
    if (!producer) return;
    em.access(code.arrive, producer, [&](unsigned) { return barrier(stage); });
    const uint64_t kbox = uint64_t(k) * kTileK / kBox % (n_ / kBox);
    for (uint32_t i = 0; i < kBoxesA; ++i)
      em.access(code.copy_a, producer, [&](unsigned) { return box(a_, row0 / kBox + i, kbox); });
    for (uint32_t i = 0; i < kBoxesB; ++i)
      em.access(code.copy_b, producer, [&](unsigned) { return box(b_, kbox, col0 / kBox + i); });
  }

  void build() {
    auto& p = program_;
    const Dialect& d = p.dialect();
    p.add("S2R", {0}, {});
    p.add("ELECT", {}, {});
    for (uint16_t r = 24; r < 28; ++r) p.add("MOV", {r}, {});  // the accumulators' first registers
    prologue_ = add_stage_copy();
    wait_ = p.add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {}, {}, 8);
    p.add("WARPGROUP.ARRIVE", {}, {});
    for (uint32_t m = 0; m < kMmasPerTile; ++m) p.add("HGMMA.64x256x16.F32", {24}, {24});
    p.add("WARPGROUP.DEPBAR.LE", {}, {});
    refill_ = add_stage_copy();
    p.add(d.int_add(), {1}, {1, RZ, RZ});
    p.add("ISETP.GE.AND", {}, {1});
    branch_ = p.add("BRA", {}, {});
    p.add("IMAD.WIDE", {14}, {0, 3});
    store_ = p.size();
    for (uint32_t q = 0; q < kStores; ++q) p.store_global(16, 14, uint16_t(24 + q % 4));
    p.add("EXIT", {}, {});
  }

  uint32_t stages_ = 0, k_tiles_ = 0;
  uint64_t n_ = 0, tiles_n_ = 0, a_ = 0, b_ = 0, c_ = 0;
  StageCopy prologue_, refill_;
  uint32_t wait_ = 0, branch_ = 0, store_ = 0;
};

}  // namespace

std::unique_ptr<KernelModel> make_empty(const KernelParams& p, const Dialect& d, DeviceMemory&) {
  return std::make_unique<Empty>(p, d);
}
std::unique_ptr<KernelModel> make_ffma(const KernelParams& p, const Dialect& d, DeviceMemory&) {
  return std::make_unique<Ffma>(p, d);
}
std::unique_ptr<KernelModel> make_wgmma(const KernelParams& p, const Dialect& d, DeviceMemory& m) {
  return std::make_unique<WgmmaGemm>(p, d, m);
}

}  // namespace sasskit::gen
