// The parameterised kernels the generator can trace: each builds its static
// instruction table once and then produces any CTA on its own, so a trace is
// written one CTA at a time, in any order, with the same bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dialect.hpp"
#include "formats/trace.hpp"
#include "program.hpp"

namespace sasskit::gen {

enum class KernelKind { VecAdd, Gemm, Stencil, Reduce, Gather, Tensor, Empty, Ffma, Wgmma };

// Usage error listing the kinds for an unknown name.
KernelKind parse_kernel_kind(const std::string& name);
std::string kernel_kind_name(KernelKind kind);
std::vector<std::string> kernel_kind_names();

// What the command line chooses; 0 = the kind's default.
struct KernelParams {
  uint64_t size = 0;       // elements per array (stencil, gemm, tensor: square side^2)
  uint32_t grid = 0;       // CTAs along x (and y for gemm)
  uint32_t block = 0;      // threads per CTA
  uint32_t iters = 0;      // trips of the kernel's main loop
  uint32_t imbalance = 1;  // heavy CTAs run this many times the trips
  uint64_t seed = 1;
  uint32_t stages = 0;     // wgmma: k-tiles in flight in shared memory
};

// Global memory as cudaMalloc hands it out. Buffers are named so repeated
// launches of a kind reuse their data, as an iterative application does.
class DeviceMemory {
 public:
  // The address of buffer `name`; a first use of an input buffer adds a
  // host-to-device copy for kernelslist.g.
  uint64_t buffer(const std::string& name, uint64_t bytes, bool from_host);
  // The copies added since the last call, in order.
  std::vector<Memcpy> take_copies();

 private:
  struct Block {
    uint64_t address, bytes;
  };
  std::map<std::string, Block> buffers_;
  std::vector<Memcpy> copies_;
  uint64_t next_ = kHeapBase;
  static constexpr uint64_t kHeapBase = 0x00007f4c2a000000ull;
};

// Where the tracer reported the shared and local windows (a typical
// 64-bit Linux process; the values only have to be consistent).
inline constexpr uint64_t kSharedBase = 0x00007f4c5e000000ull;
inline constexpr uint64_t kLocalBase = 0x00007f4c5c000000ull;

class KernelModel {
 public:
  virtual ~KernelModel() = default;
  // Name, dimensions, shared memory, registers and binary version; the
  // generator fills in ids and tracer fields.
  const KernelInfo& info() const { return info_; }
  const std::vector<StaticInst>& table() const { return program_.table(); }
  uint64_t cta_count() const { return info_.grid.volume(); }
  // Replaces `out`'s warps with CTA `linear`'s (x fastest); reuses capacity.
  void cta(uint64_t linear, uint64_t seed, CtaTrace& out) const;

 protected:
  KernelModel(Dialect dialect, const KernelParams& params) : program_(dialect), params_(params) {}
  virtual void fill_warp(uint64_t cta, uint32_t warp, uint64_t seed, WarpEmitter& em) const = 0;
  // The main loop's trips for a CTA: every 8th CTA is heavy (--imbalance).
  uint32_t trips(uint64_t cta, uint32_t base) const;
  // The lanes of `warp` that hold threads of the block.
  uint32_t warp_lanes(uint32_t warp) const;
  void set_launch(std::string name, Dim3 grid, Dim3 block, uint32_t shmem, uint32_t nregs);

  Program program_;
  KernelParams params_;
  KernelInfo info_;
};

std::unique_ptr<KernelModel> make_kernel(KernelKind kind, const KernelParams& params,
                                         const Dialect& dialect, DeviceMemory& memory);

}  // namespace sasskit::gen
