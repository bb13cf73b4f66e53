#include "kernel_name.hpp"

#include <gtest/gtest.h>

namespace sasskit {
namespace {

TEST(KernelName, DemanglesAMangledName) {
  EXPECT_EQ(demangle_kernel_name("_Z6vecAddPfS_S_i"), "vecAdd(float*, float*, float*, int)");
}

TEST(KernelName, LeavesAPlainNameAlone) {
  EXPECT_EQ(demangle_kernel_name("vecAdd"), "vecAdd");
  EXPECT_EQ(demangle_kernel_name("_Zbroken"), "_Zbroken");
}

TEST(KernelName, BaseNameOfEverySpelling) {
  EXPECT_EQ(base_kernel_name("_Z6vecAddPfS_S_i"), "vecAdd");
  EXPECT_EQ(base_kernel_name("vecAdd(float*, float*, float*, int)"), "vecAdd");
  EXPECT_EQ(base_kernel_name("vecAdd"), "vecAdd");
  EXPECT_EQ(base_kernel_name("vecAdd(float*, float*, float*, int) [118]"), "vecAdd");
  EXPECT_EQ(base_kernel_name("void ns::gemm<float, (int)4>(float*, int)"), "gemm");
  EXPECT_EQ(base_kernel_name("_ZN2ns4gemmIfLi4EEEvPfi"), "gemm");
}

TEST(KernelName, DropsAReturnTypeBeforeAnUnscopedName) {
  EXPECT_EQ(base_kernel_name("void gemm<float>(float*)"), "gemm");
}

}  // namespace
}  // namespace sasskit
