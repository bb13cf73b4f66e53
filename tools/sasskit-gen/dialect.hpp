// How SASS spells the generated kernels' instructions for one binary version
// (sm_61 ... sm_90): opcodes and instruction addresses differ by generation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sasskit::gen {

class Dialect {
 public:
  // Usage error for a version without a dialect here.
  static Dialect for_version(uint32_t binary_version);
  static const std::vector<uint32_t>& supported_versions();

  uint32_t version() const { return version_; }
  uint64_t first_pc() const;
  uint64_t pc_after(uint64_t pc) const;

  std::string global_load(uint32_t bytes) const;
  std::string global_store(uint32_t bytes) const;
  std::string shared_load(uint32_t bytes) const;
  std::string shared_store(uint32_t bytes) const;
  std::string int_mad() const;         // XMAD (Pascal) or IMAD
  std::string int_add() const;         // IADD (Pascal) or IADD3
  std::string barrier() const;         // __syncthreads()
  std::string converge_begin() const;  // SSY (Pascal) or BSSY
  std::string converge_end() const;    // SYNC (Pascal) or BSYNC
  bool has_tensor_cores() const { return version_ >= 70; }
  // The HMMA instructions of one warp-wide 16x16x16 f16 -> f32 wmma::mma_sync.
  std::vector<std::string> mma_16x16x16() const;

 private:
  explicit Dialect(uint32_t v) : version_(v) {}
  uint32_t version_;
};

}  // namespace sasskit::gen
