// Which kernels a run keeps, as the command line gives it: ids, and Nsight
// Compute's filters with ncu's meaning (-k, --kernel-name-base,
// --launch-skip, --launch-count). formats/kernel_selector.hpp applies it;
// cli.hpp's add_kernel_selection_options declares its options.
#pragma once

#include <cstdint>
#include <string>

namespace sasskit {

struct KernelSelectionOptions {
  std::string ids;                     // --kernels LIST
  std::string name;                    // -k NAME, or regex:EXPR
  std::string name_base = "function";  // function, demangled or mangled
  uint64_t launch_skip = 0;
  uint64_t launch_count = 0;  // 0: no limit
};

}  // namespace sasskit
