// The "cache" record rd-cache adds per kernel (formats/STREAM.md).
#pragma once

#include <cstdint>
#include <vector>

#include "formats/stream.hpp"

namespace sasskit {

struct KernelCacheModel {
  uint32_t kernel_id = 0;
  double l1_hit_rate = 0;  // sectors, all cached spaces
  double l2_hit_rate = 0;
  uint64_t gmem_requests = 0;
  // Per static PC with memory traffic: the average memory access time in
  // cycles and the hit rates, columns of equal length.
  std::vector<uint64_t> pc;
  std::vector<double> amat;
  std::vector<double> pc_l1_hit_rate;
  std::vector<double> pc_l2_hit_rate;
  bool operator==(const KernelCacheModel&) const = default;
};

}  // namespace sasskit
