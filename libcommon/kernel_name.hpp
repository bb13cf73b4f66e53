// Kernel names as the different tools print them. A trace and Accel-Sim keep
// the mangled name (_Z6vecAddPfS_S_i), Nsight Compute and nvprof print the
// demangled signature (vecAdd(float*, float*, float*, int)) or only its base
// name (vecAdd); nvprof may add a " [1234]" correlation id. These helpers map
// every spelling to forms that can be compared.
#pragma once

#include <string>
#include <string_view>

namespace sasskit {

// The demangled C++ name, or the name unchanged when it is not a mangled one.
std::string demangle_kernel_name(std::string_view name);

// `name` without a trailing " [digits]" (nvprof's correlation id).
std::string_view without_correlation_id(std::string_view name);

// The function's own name without namespaces, template arguments, parameters
// or a trailing " [id]": "ns::gemm<float, 4>(float*, int) [12]" -> "gemm".
std::string base_kernel_name(std::string_view name);

}  // namespace sasskit
