#include <gtest/gtest.h>

#include "plan_builder.hpp"
#include "root.hpp"

namespace sasskit::kselect {
namespace {

Profile profile_of(const std::vector<double>& durations, const std::string& name = "k") {
  Profile p;
  for (double d : durations) p.add(p.size() + 1, name, d);
  return p;
}

// Durations spread uniformly-ish around `centre` (+- spread), deterministic.
void add_mode(std::vector<double>& v, double centre, double spread, int n, uint64_t seed) {
  Rng rng(seed);
  for (int i = 0; i < n; ++i) v.push_back(centre + spread * (2 * rng.unit() - 1));
}

TEST(Root, BestSplitIsTheExactTwoMeansCut) {
  std::vector<double> v{1, 2, 3, 10, 11, 12};
  EXPECT_EQ(best_split(v), 3u);
  std::vector<double> same{5, 5, 5};
  EXPECT_EQ(best_split(same), 0u);
}

TEST(Root, SplitsABimodalGroup) {
  std::vector<double> v;
  add_mode(v, 1000, 20, 500, 1);
  add_mode(v, 5000, 50, 300, 2);
  Profile p = profile_of(v);
  auto clusters = root_clusters(p, 0.05, z_score(0.95));
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0].rows.size(), 500u);
  EXPECT_EQ(clusters[1].rows.size(), 300u);
  EXPECT_NEAR(clusters[0].stats.mean, 1000, 5);
  EXPECT_NEAR(clusters[1].stats.mean, 5000, 10);
}

TEST(Root, KeepsAUnimodalGroup) {
  std::vector<double> v;
  add_mode(v, 1000, 20, 800, 3);
  Profile p = profile_of(v);
  auto clusters = root_clusters(p, 0.05, z_score(0.95));
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(clusters[0].rows.size(), 800u);
}

TEST(Root, NeverMixesKernelNames) {
  Profile p;
  for (int i = 0; i < 10; ++i) {
    p.add(p.size() + 1, "a", 100 + i);
    p.add(p.size() + 1, "b", 100 + i);
  }
  auto clusters = root_clusters(p, 0.05, z_score(0.95));
  for (const auto& c : clusters)
    for (uint32_t r : c.rows) EXPECT_EQ(p.name[r], c.name);
  EXPECT_GE(clusters.size(), 2u);
}

}  // namespace
}  // namespace sasskit::kselect
