// The "cache" record rd-cache adds per kernel (formats/STREAM.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/stream.hpp"

namespace sasskit {

// Write-backs per L2 sector a record may give: an access evicts at most one
// line, and no modeled line has more sectors than this.
inline constexpr uint64_t kMaxWritebacksPerL2Sector = 32;

struct KernelCacheModel {
  uint32_t kernel_id = 0;
  std::string gpu;         // the GPU model it was computed for (empty: unnamed, format before 2.1)
  double l1_hit_rate = 0;  // sectors, all cached spaces
  double l2_hit_rate = 0;
  uint64_t gmem_requests = 0;
  // The CTAs whose accesses it models: the kernel's cta records in
  // rd-cache's input, all of them or the ones cta-sample kept (2.6; unknown
  // before). Its counts are of those CTAs.
  std::optional<uint64_t> ctas;
  // Per static PC with memory traffic: the average memory access time in
  // cycles and the hit rates, columns of equal length.
  std::vector<uint64_t> pc;
  std::vector<double> amat;
  std::vector<double> pc_l1_hit_rate;
  std::vector<double> pc_l2_hit_rate;
  std::vector<uint64_t> pc_requests;
  std::vector<uint64_t> pc_sectors;
  std::vector<uint64_t> pc_l2_sectors;         // looked up in L2 (2.2)
  std::vector<uint64_t> pc_writeback_sectors;  // dirty L2 sectors its L2 accesses evicted (2.2)

  double kernel_amat = 0;          // cycles, over all cached-space sectors, unloaded
  uint64_t l1_sectors = 0, l1_hits = 0;
  uint64_t l2_sectors = 0, l2_hits = 0;
  uint64_t l2_bound_sectors = 0;   // sent from L1 to L2 over the interconnect
  std::optional<uint64_t> l2_bound_write_sectors;  // of those, stores' (2.5; unknown before)
  uint64_t dram_sectors = 0;        // read + write
  uint64_t dram_read_sectors = 0;   // 2.2; 0 in older streams
  uint64_t dram_write_sectors = 0;  // 2.2: write-backs and writes L2 does not keep
  // Per SM with L1 or L2 traffic.
  std::vector<uint32_t> sm;
  std::vector<double> sm_l1_hit_rate;
  std::vector<double> sm_l2_hit_rate;
  // Per memory space and operation with requests ("global.ld", ...).
  std::vector<std::string> space;
  std::vector<uint64_t> space_requests;
  std::vector<uint64_t> space_sectors;
  bool operator==(const KernelCacheModel&) const = default;
};

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<KernelCacheModel> {
  static constexpr RecordType type = RecordType::Cache;
  static void pack(Packer& pk, const KernelCacheModel& c);
  static KernelCacheModel unpack(const Record& r);
};

}  // namespace sasskit::stream
