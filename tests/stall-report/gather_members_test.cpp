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
