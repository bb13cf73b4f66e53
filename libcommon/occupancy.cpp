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

unsigned register_limit(const GpuConfig& gpu, const CtaResources& cta, unsigned warps_per_cta) {
  if (cta.regs_per_thread == 0) return kUnlimited;
  if (cta.regs_per_thread > gpu.max_regs_per_thread) return 0;
  const uint64_t regs_per_warp = round_up(uint64_t(cta.regs_per_thread) * gpu.warp_size, gpu.reg_alloc_unit);
  const unsigned partitions = std::max(1u, gpu.subcores_per_sm);
  // The hardware's per-CTA check assumes warps spread over all partitions.
  if (regs_per_warp * round_up(warps_per_cta, partitions) > gpu.regs_per_sm) return 0;
  const uint64_t warps_per_partition = gpu.regs_per_sm / partitions / regs_per_warp;
  return static_cast<unsigned>(warps_per_partition * partitions / warps_per_cta);
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
  const uint64_t allocated = round_up(cta.smem_bytes + gpu.smem_reserved_per_cta, gpu.smem_alloc_unit);
  if (allocated == 0) return kUnlimited;
  const uint64_t limit = smem_available(gpu, allocated) / allocated;
  return static_cast<unsigned>(std::min<uint64_t>(limit, kUnlimited));
}

}  // namespace

Occupancy occupancy(const GpuConfig& gpu, const CtaResources& cta) {
  if (cta.threads == 0 || cta.threads > gpu.max_threads_per_cta || gpu.warp_size == 0) {
    return {0, "threads"};
  }
  const unsigned warps_per_cta = (cta.threads + gpu.warp_size - 1) / gpu.warp_size;
  const unsigned max_warps = std::min(gpu.max_warps_per_sm, gpu.max_threads_per_sm / gpu.warp_size);
  // Ties name the first resource in this order.
  const std::pair<unsigned, const char*> limits[] = {
      {max_warps / warps_per_cta, "warps"},
      {register_limit(gpu, cta, warps_per_cta), "registers"},
      {smem_limit(gpu, cta), "shared memory"},
      {gpu.max_ctas_per_sm, "ctas"},
  };
  const auto* best = std::min_element(std::begin(limits), std::end(limits),
                                      [](const auto& a, const auto& b) { return a.first < b.first; });
  return {best->first, best->second};
}

SmLoad& SmLoad::operator+=(const SmLoad& o) {
  ctas += o.ctas;
  warps += o.warps;
  regs += o.regs;
  smem += o.smem;
  return *this;
}

SmLoad& SmLoad::operator-=(const SmLoad& o) {
  ctas -= o.ctas;
  warps -= o.warps;
  regs -= o.regs;
  smem -= o.smem;
  return *this;
}

SmLoad cta_load(const GpuConfig& gpu, const CtaResources& cta) {
  const unsigned warps = gpu.warp_size ? (cta.threads + gpu.warp_size - 1) / gpu.warp_size : 0;
  const uint64_t regs_per_warp =
      cta.regs_per_thread ? round_up(uint64_t(cta.regs_per_thread) * gpu.warp_size, gpu.reg_alloc_unit) : 0;
  return {1, warps, regs_per_warp * warps, round_up(cta.smem_bytes + gpu.smem_reserved_per_cta, gpu.smem_alloc_unit)};
}

SmLoad sm_capacity(const GpuConfig& gpu) {
  uint64_t smem = gpu.smem_per_sm;
  for (unsigned kb : gpu.smem_carveouts_kb) smem = std::max<uint64_t>(smem, uint64_t(kb) * 1024);
  const unsigned warps = gpu.warp_size ? std::min(gpu.max_warps_per_sm, gpu.max_threads_per_sm / gpu.warp_size) : 0;
  return {gpu.max_ctas_per_sm, warps, gpu.regs_per_sm, smem};
}

bool within(const SmLoad& load, const SmLoad& capacity) {
  return load.ctas <= capacity.ctas && load.warps <= capacity.warps && load.regs <= capacity.regs &&
         load.smem <= capacity.smem;
}

}  // namespace sasskit
