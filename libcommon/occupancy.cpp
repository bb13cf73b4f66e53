// CTAs per SM, following the rules of NVIDIA's cuda_occupancy.h (CUDA
// toolkit header, cudaOccMaxBlocksPerSMRegsLimit / ...SmemLimit): registers
// are allocated per warp in units of reg_alloc_unit and each sub-partition
// (sub-core) holds whole warps; shared memory per CTA, plus the per-CTA
// system reservation, is rounded up to smem_alloc_unit.
#include <algorithm>
#include <limits>

#include "libcommon/gpu_config.hpp"
#include "libcommon/sm_load.hpp"

namespace sasskit {

namespace {

constexpr unsigned kUnlimited = std::numeric_limits<unsigned>::max();

uint64_t round_up(uint64_t x, uint64_t unit) { return unit == 0 ? x : (x + unit - 1) / unit * unit; }

// What one CTA and the SM count in, as allocated: shared by occupancy() and
// cta_load() / sm_capacity() so that both round alike.
unsigned warps_per_cta(const GpuConfig& gpu, const CtaResources& cta) {
  return gpu.warp_size ? (cta.threads + gpu.warp_size - 1) / gpu.warp_size : 0;
}
uint64_t regs_per_warp(const GpuConfig& gpu, const CtaResources& cta) {
  return round_up(uint64_t(cta.regs_per_thread) * gpu.warp_size, gpu.reg_alloc_unit);
}
uint64_t smem_allocated(const GpuConfig& gpu, const CtaResources& cta) {
  return round_up(cta.smem_bytes + gpu.smem_reserved_per_cta, gpu.smem_alloc_unit);
}
unsigned max_warps_per_sm(const GpuConfig& gpu) {
  return gpu.warp_size ? std::min(gpu.max_warps_per_sm, gpu.max_threads_per_sm / gpu.warp_size) : 0;
}

unsigned register_limit(const GpuConfig& gpu, const CtaResources& cta, unsigned cta_warps) {
  if (cta.regs_per_thread == 0) return kUnlimited;
  if (cta.regs_per_thread > gpu.max_regs_per_thread) return 0;
  const uint64_t warp_regs = regs_per_warp(gpu, cta);
  const unsigned partitions = std::max(1u, gpu.subcores_per_sm);
  // The hardware's per-CTA check assumes warps spread over all partitions.
  if (warp_regs * round_up(cta_warps, partitions) > gpu.regs_per_sm) return 0;
  const uint64_t warps_per_partition = gpu.regs_per_sm / partitions / warp_regs;
  return static_cast<unsigned>(warps_per_partition * partitions / cta_warps);
}

// The shared memory the SM offers this CTA: the configured carve-out, or the
// smallest selectable carve-out that holds one CTA (the driver picks it).
uint64_t smem_available(const GpuConfig& gpu, uint64_t smem_per_cta) {
  if (gpu.smem_per_sm >= smem_per_cta) return gpu.smem_per_sm;
  for (unsigned kb : gpu.smem_carveouts_kb) {
    if (uint64_t(kb) * 1024 >= smem_per_cta) return uint64_t(kb) * 1024;
  }
  return gpu.smem_per_sm;
}

unsigned smem_limit(const GpuConfig& gpu, const CtaResources& cta) {
  if (cta.smem_bytes > gpu.smem_per_cta) return 0;
  const uint64_t allocated = smem_allocated(gpu, cta);
  if (allocated == 0) return kUnlimited;
  const uint64_t limit = smem_available(gpu, allocated) / allocated;
  return static_cast<unsigned>(std::min<uint64_t>(limit, kUnlimited));
}

}  // namespace

Occupancy occupancy(const GpuConfig& gpu, const CtaResources& cta) {
  if (cta.threads == 0 || cta.threads > gpu.max_threads_per_cta || gpu.warp_size == 0) {
    return {0, "threads"};
  }
  const unsigned cta_warps = warps_per_cta(gpu, cta);
  // Ties name the first resource in this order.
  const std::pair<unsigned, const char*> limits[] = {
      {max_warps_per_sm(gpu) / cta_warps, "warps"},
      {register_limit(gpu, cta, cta_warps), "registers"},
      {smem_limit(gpu, cta), "shared memory"},
      {gpu.max_ctas_per_sm, "ctas"},
  };
  const auto* best = std::min_element(std::begin(limits), std::end(limits),
                                      [](const auto& a, const auto& b) { return a.first < b.first; });
  return {best->first, best->second};
}

SmLoad cta_load(const GpuConfig& gpu, const CtaResources& cta) {
  const unsigned warps = warps_per_cta(gpu, cta);
  return {1, warps, regs_per_warp(gpu, cta) * warps, smem_allocated(gpu, cta)};
}

SmLoad sm_capacity(const GpuConfig& gpu) {
  uint64_t smem = gpu.smem_per_sm;
  for (unsigned kb : gpu.smem_carveouts_kb) smem = std::max<uint64_t>(smem, uint64_t(kb) * 1024);
  return {gpu.max_ctas_per_sm, max_warps_per_sm(gpu), gpu.regs_per_sm, smem};
}

}  // namespace sasskit
