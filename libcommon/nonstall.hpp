// HyFiSS's non-stall time of a set of CTAs (Yang et al., MICRO 2024,
// §III-C): per execution-unit class i with N_i units of latency Lat_i and
// n_i warp instructions,
//   Eq. 1   C_i = n_i / N_i + (Lat_i - 1)
//   Eq. 2   C   = max_i C_i * N_i / min(N_i, IRate)
// where IRate is the SM's saturated issue rate.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "libcommon/gpu_config.hpp"

namespace sasskit {

// Warp instructions per execution-unit class.
using UnitCounts = std::array<uint64_t, kUnitClasses>;

UnitCounts& operator+=(UnitCounts& a, const UnitCounts& b);
uint64_t total(const UnitCounts& c);

// A CTA's dynamic warp instructions by unit class: `warps` are its warp
// traces (each an `inst` column of static-table indices, already
// validated), `unit_of(i)` the class of table entry i.
template <class Warps, class UnitOf>
UnitCounts count_units(const Warps& warps, const UnitOf& unit_of) {
  UnitCounts counts{};
  for (const auto& w : warps)
    for (uint32_t i : w.inst) ++counts[static_cast<size_t>(unit_of(i))];
  return counts;
}


class NonStallModel {
 public:
  // Takes N_i = count * subcores / initiation_interval (a unit that accepts
  // a warp instruction every II cycles counts as 1/II of a unit) and
  // IRate = subcores_per_sm (one warp scheduler per sub-core, each issuing
  // one instruction per cycle).
  explicit NonStallModel(const GpuConfig& gpu);
  // Eq. 2 over the classes that have instructions; 0 for no instructions.
  // An instruction class the model has no unit for is a Failure.
  double cycles(const UnitCounts& counts) const;

 private:
  std::array<double, kUnitClasses> units_{};
  std::array<double, kUnitClasses> latency_{};
  double issue_rate_ = 1;
  std::string gpu_name_;
};

}  // namespace sasskit
