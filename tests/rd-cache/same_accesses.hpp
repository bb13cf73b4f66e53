// A CTA's accesses compared field by field, for tests of the code that
// extracts, spills and loads them.
#pragma once

#include <gtest/gtest.h>

#include "kernel_accesses.hpp"

namespace sasskit::rdcache::test {

inline void expect_same(const CtaAccesses& a, const CtaAccesses& b) {
  EXPECT_EQ(a.linear, b.linear);
  ASSERT_EQ(a.warps.size(), b.warps.size());
  for (size_t w = 0; w < a.warps.size(); ++w) {
    EXPECT_EQ(a.warps[w].pos, b.warps[w].pos);
    EXPECT_EQ(a.warps[w].inst, b.warps[w].inst);
    EXPECT_EQ(a.warps[w].line_begin, b.warps[w].line_begin);
    EXPECT_EQ(a.warps[w].lines, b.warps[w].lines);
  }
}

}  // namespace sasskit::rdcache::test
