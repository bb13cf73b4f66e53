// The made-up GPU of tiny.cfg, built in code for unit tests.
#pragma once

#include "libcommon/gpu_config.hpp"

inline sasskit::GpuConfig tiny_gpu(unsigned num_sms = 4) {
  using sasskit::UnitClass;
  sasskit::GpuConfig g;
  g.name = "tiny4";
  g.clock_mhz = 1000;
  g.num_sms = num_sms;
  g.subcores_per_sm = 4;
  g.max_warps_per_sm = 64;
  g.max_threads_per_sm = 2048;
  g.max_ctas_per_sm = 32;
  g.regs_per_sm = 65536;
  g.smem_per_sm = 96 * 1024;
  g.smem_per_cta = 96 * 1024;
  auto set = [&](UnitClass u, unsigned count, unsigned latency, unsigned interval) {
    g.units[static_cast<size_t>(u)] = {count, latency, interval};
  };
  set(UnitClass::Int, 1, 4, 1);
  set(UnitClass::Sp, 1, 4, 1);
  set(UnitClass::Dp, 1, 8, 4);
  set(UnitClass::Sfu, 1, 20, 4);
  set(UnitClass::Tensor, 1, 32, 4);
  set(UnitClass::Ldst, 1, 30, 1);
  set(UnitClass::Branch, 1, 2, 1);
  return g;
}
