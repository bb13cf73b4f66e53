#include "kernels.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "kernel_parts.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::gen {

namespace {
struct KindName {
  KernelKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {KernelKind::VecAdd, "vecadd"},   {KernelKind::Gemm, "gemm"},
    {KernelKind::Stencil, "stencil"}, {KernelKind::Reduce, "reduce"},
    {KernelKind::Gather, "gather"},   {KernelKind::Tensor, "tensor"},
    {KernelKind::Empty, "empty"},     {KernelKind::Ffma, "ffma"},
    {KernelKind::Wgmma, "wgmma"},
};
}  // namespace

std::vector<std::string> kernel_kind_names() {
  std::vector<std::string> names;
  for (const auto& k : kKinds) names.emplace_back(k.name);
  return names;
}

KernelKind parse_kernel_kind(const std::string& name) {
  for (const auto& k : kKinds)
    if (name == k.name) return k.kind;
  std::string all;
  for (const auto& n : kernel_kind_names()) all += (all.empty() ? "" : ", ") + n;
  fail_usage("unknown kernel '" + name + "' (expected one of " + all + ")");
}

std::string kernel_kind_name(KernelKind kind) {
  for (const auto& k : kKinds)
    if (kind == k.kind) return k.name;
  return "?";
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t matrix_side(uint64_t elements) {
  auto side = uint64_t(std::sqrt(double(elements)));
  while (side * side < elements) ++side;
  while (side > 1 && (side - 1) * (side - 1) >= elements) --side;
  return side;
}

uint32_t checked_u32(uint64_t v, const std::string& what) {
  if (v == 0 || v > UINT32_MAX)
    fail_usage(what + " " + std::to_string(v) + " is out of range (1 to 4294967295)");
  return uint32_t(v);
}

GridStride::GridStride(const KernelParams& p, uint64_t default_n) {
  n = p.size ? p.size : default_n;
  block = p.block ? p.block : 256;
  iters = p.iters ? p.iters : p.grid ? ceil_div(n, uint64_t(p.grid) * block) : 1;
  grid = p.grid ? p.grid : ceil_div(n, block * iters);
  checked_u32(grid, "grid");
}

// cudaMalloc returns 512-byte aligned blocks one after another in a fresh
// context (the Memcpy lines of the shared sm_61 vectoradd trace are 0x200 apart).
uint64_t DeviceMemory::buffer(const std::string& name, uint64_t bytes, bool from_host) {
  auto it = buffers_.find(name);
  if (it != buffers_.end() && it->second.bytes >= bytes) return it->second.address;
  const Block block{next_, bytes};
  next_ += ceil_div(bytes, 512) * 512;
  buffers_[name] = block;
  if (from_host) copies_.push_back(Memcpy{block.address, bytes});
  return block.address;
}

std::vector<Memcpy> DeviceMemory::take_copies() { return std::exchange(copies_, {}); }

void KernelModel::cta(uint64_t linear, uint64_t seed, CtaTrace& out) const {
  const Dim3& g = info_.grid;
  out.cta = Dim3{uint32_t(linear % g.x), uint32_t(linear / g.x % g.y),
                 uint32_t(linear / (uint64_t(g.x) * g.y))};
  const auto warps = uint32_t(ceil_div(info_.block.volume(), 32));
  out.warps.resize(warps);
  for (uint32_t w = 0; w < warps; ++w) {
    WarpTrace& wt = out.warps[w];
    wt.warp_id = w;
    wt.inst.clear();
    wt.mask.clear();
    wt.addr_mode.clear();
    wt.addrs.clear();
    WarpEmitter em(wt, table());
    fill_warp(linear, w, seed, em);
  }
}

uint32_t KernelModel::trips(uint64_t cta, uint32_t base) const {
  return cta % 8 == 0 ? base * params_.imbalance : base;
}

uint32_t KernelModel::warp_lanes(uint32_t warp) const {
  const uint64_t threads = info_.block.volume();
  return first_lanes(unsigned(std::min<uint64_t>(32, threads - uint64_t(warp) * 32)));
}

void KernelModel::set_launch(std::string name, Dim3 grid, Dim3 block, uint32_t shmem,
                             uint32_t nregs) {
  if (block.volume() > 1024)
    fail_usage("a block of " + std::to_string(block.volume()) +
               " threads is more than CUDA's 1024");
  info_.name = std::move(name);
  info_.grid = grid;
  info_.block = block;
  info_.shmem = shmem;
  info_.nregs = nregs;
  info_.binary_version = program_.dialect().version();
}

void GuardedLoop::end_prologue(Program& p, uint32_t begin) {
  prologue_begin = begin;
  exit_early = p.add("EXIT", {}, {});
}

void GuardedLoop::end_loop(Program& p, uint16_t index_reg, uint16_t stride_reg) {
  step_begin = p.add(p.dialect().int_add(), {index_reg}, {index_reg, stride_reg, RZ});
  p.add("ISETP.GE.AND", {}, {index_reg});
  branch = p.add("BRA", {}, {});
  exit = p.add("EXIT", {}, {});
}

std::unique_ptr<KernelModel> make_kernel(KernelKind kind, const KernelParams& params,
                                         const Dialect& dialect, DeviceMemory& memory) {
  switch (kind) {
    case KernelKind::VecAdd:
      return make_vecadd(params, dialect, memory);
    case KernelKind::Gemm:
      return make_gemm(params, dialect, memory);
    case KernelKind::Stencil:
      return make_stencil(params, dialect, memory);
    case KernelKind::Reduce:
      return make_reduce(params, dialect, memory);
    case KernelKind::Gather:
      return make_gather(params, dialect, memory);
    case KernelKind::Tensor:
      return make_tensor(params, dialect, memory);
    case KernelKind::Empty:
      return make_empty(params, dialect, memory);
    case KernelKind::Ffma:
      return make_ffma(params, dialect, memory);
    case KernelKind::Wgmma:
      return make_wgmma(params, dialect, memory);
  }
  throw std::logic_error("unknown kernel kind");
}

}  // namespace sasskit::gen
