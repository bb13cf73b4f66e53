// Decoding a kernel's static instruction table once for the pipeline.
#pragma once

#include <functional>
#include <string_view>

#include "formats/cache_record.hpp"
#include "formats/kernel_placement.hpp"
#include "program.hpp"

namespace sasskit::pipesim {

using Classifier = std::function<OpcodeInfo(std::string_view opcode)>;
// `classify(binary_version)` returns the opcode classifier for a kernel.
using ClassifierFor = std::function<Classifier(uint32_t binary_version)>;

// The default classifier: configs/opcodes tables via OpcodeTable.
Classifier opcode_table_classifier(uint32_t binary_version);

// Hit rates for memory PCs without a cache record (see pipe-sim(1)).
struct MemoryDefaults {
  double l1_hit = 0.0;
  double l2_hit = 0.5;
};

// `base_address`: where the kernel's code starts (instruction caches).
// `cache`: rd-cache's per-PC hit rates, or null for the defaults.
KernelProgram build_program(uint32_t kernel_id, const std::vector<StaticInst>& table, uint64_t base_address,
                            const Classifier& classify, const KernelCacheModel* cache,
                            const MemoryDefaults& defaults);

// Bytes of code the table spans, rounded up to `line` (the next kernel's
// code starts there, so no two kernels share instruction addresses).
uint64_t code_footprint(const std::vector<StaticInst>& table, unsigned line);

}  // namespace sasskit::pipesim
