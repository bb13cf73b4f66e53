// The made-up GPU of tiny.cfg, built in code for unit tests.
#pragma once

#include "libcommon/gpu_config.hpp"
#include "tests/support/volta_like_gpu.hpp"

inline sasskit::GpuConfig tiny_gpu(unsigned num_sms = 4) {
  using sasskit::UnitClass;
  sasskit::GpuConfig g = sasskit::test::volta_like_gpu("tiny4", num_sms);
  g.clock_mhz = 1000;
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
