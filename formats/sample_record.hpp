// The `sample` record (formats/STREAM.md): which CTAs cta-sample kept of a
// kernel, why, and the instruction counts that scale the sample back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/stream.hpp"

namespace sasskit {

struct KernelSample {
  uint32_t kernel_id = 0;
  std::string selection;                 // "max", "top" or "sm" (forced with --sm)
  std::vector<uint32_t> sms;             // the SMs kept, longest predicted first
  std::vector<uint32_t> ctas;            // the CTAs kept (linear index), in launch order
  std::vector<double> predicted_cycles;  // per SM of the model: non-stall time, HyFiSS Eq. 2
  uint64_t kernel_insts = 0;             // warp instructions of the whole kernel
  uint64_t sample_insts = 0;             // warp instructions of the CTAs kept
  uint32_t kernel_ctas = 0;              // CTAs of the whole kernel
  bool operator==(const KernelSample&) const = default;
};

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<KernelSample> {
  static constexpr std::string_view type = "sample";
  static void pack(Packer& pk, const KernelSample& s);
  static KernelSample unpack(const Record& r);
};

}  // namespace sasskit::stream
