#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "gather.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::stallreport;
using sasskit::testing::FixtureOptions;
using sasskit::testing::fixture_stream;

TEST(GatherMembers, OneReportPerMemberWithItsProvenance) {
  FixtureOptions b;
  b.variant_b = true;
  std::istringstream in(fixture_stream({}) + fixture_stream(b));
  const std::vector<MemberReport> members = gather_members(in, "ab", {});
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[1].member, 1u);
  EXPECT_EQ(members[1].provenance.back().tool, "stallreport-mkstream");
  ASSERT_EQ(members[0].report.kernels.size(), 2u);
  EXPECT_NE(members[0].report.kernels[0].m.cycles, members[1].report.kernels[0].m.cycles);
}

TEST(GatherMembers, TheJoinedReportHoldsEveryMembersKernels) {
  std::istringstream in(fixture_stream({}) + fixture_stream({}));
  const Report joined = gather_report(in, "ab", {});
  std::istringstream one(fixture_stream({}));
  const Report single = gather_report(one, "a", {});
  ASSERT_EQ(joined.kernels.size(), 2 * single.kernels.size());
  EXPECT_DOUBLE_EQ(joined.totals.instructions, 2 * single.totals.instructions);
}

TEST(GatherMembers, AMemberWithoutStatsIsRefused) {
  FixtureOptions nostats;
  nostats.stats = false;
  std::istringstream in(fixture_stream({}) + fixture_stream(nostats));
  try {
    gather_members(in, "ab", {});
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "ab: member 2");
  }
}
