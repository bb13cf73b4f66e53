// A generated workload of every kernel kind the binary version has (tensor
// ops from sm_70): barriers, divergence, shared memory, random addresses and
// CTAs of unequal work, for tests that compare two ways of simulating it.
#pragma once

#include <cstdint>

#include "bench/pipe-sim/generated_workload.hpp"

namespace sasskit::pipesim::test {

inline Workload generated_mix(uint32_t binary_version, uint64_t size) {
  gen::GenOptions g;
  for (const char* k : {"gemm", "reduce", "vecadd", "stencil", "gather"}) g.kernels.push_back(gen::parse_kernel_kind(k));
  if (binary_version >= 70) g.kernels.push_back(gen::KernelKind::Tensor);
  g.params.size = size;
  g.params.imbalance = 3;
  g.binary_version = binary_version;
  return generated_workload(g);
}

}  // namespace sasskit::pipesim::test
