// The SM limits of compute capability 7.0 (CUDA C++ Programming Guide,
// technical specifications) shared by the small made-up GPUs of the unit
// tests; each test then sets the units, caches and sizes it studies.
#pragma once

#include <string>

#include "libcommon/gpu_config.hpp"

namespace sasskit::test {

inline GpuConfig volta_like_gpu(std::string name, unsigned num_sms) {
  GpuConfig g;
  g.name = std::move(name);
  g.num_sms = num_sms;
  g.subcores_per_sm = 4;
  g.max_warps_per_sm = 64;
  g.max_threads_per_sm = 2048;
  g.max_ctas_per_sm = 32;
  g.regs_per_sm = 65536;
  g.smem_per_sm = 96 * 1024;
  g.smem_per_cta = 96 * 1024;
  return g;
}

}  // namespace sasskit::test
