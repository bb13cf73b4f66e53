#include <gtest/gtest.h>

#include "stem.hpp"

namespace sasskit::kselect {
namespace {

constexpr double kZ95 = 1.959963984540054;  // Phi^-1(0.975)

TEST(Stem, ZScoreFromGsl) {
  EXPECT_NEAR(z_score(0.95), kZ95, 1e-12);
  EXPECT_NEAR(z_score(0.99), 2.5758293035489, 1e-9);
}

// Eq. 3: m = ceil((z sigma / (epsilon mu))^2) = (1.959964 * 2 / 0.5)^2 = 61.4633 -> 62.
TEST(Stem, OneClusterIsEquation3) {
  std::vector<ClusterStats> one{{100, 10.0, 2.0}};
  EXPECT_NEAR(stem_real_sizes(one, 0.05, kZ95)[0], 61.463341131, 1e-6);
  EXPECT_EQ(stem_sizes(one, 0.05, kZ95), std::vector<uint32_t>{62});
}

// KKT by hand: a = (10, 40), b = ((100*2)^2, (50*10)^2) = (40000, 250000),
// c = (0.05 * (100*10 + 50*40) / z)^2 = 5857.1499,
// sum sqrt(a b) = 632.4555 + 3162.2777 = 3794.7332,
// m0 = 3794.7332 / 5857.1499 * sqrt(40000 / 10) = 40.9756,
// m1 = 3794.7332 / 5857.1499 * sqrt(250000 / 40) = 51.2195.
TEST(Stem, TwoClustersFollowTheKktSolution) {
  std::vector<ClusterStats> two{{100, 10.0, 2.0}, {50, 40.0, 10.0}};
  auto m = stem_real_sizes(two, 0.05, kZ95);
  EXPECT_NEAR(m[0], 40.97556, 1e-4);
  EXPECT_NEAR(m[1], 51.21945, 1e-4);
  EXPECT_EQ(stem_sizes(two, 0.05, kZ95), (std::vector<uint32_t>{41, 50}));  // 52 capped at N = 50
}

// Eq. 3 asks for 62 samples of a cluster of 40: the cluster is simulated whole
// (a census) and adds nothing to the error bound; a tiny epsilon stays bounded.
TEST(Stem, SizesAreCappedAtTheClusterSize) {
  std::vector<ClusterStats> one{{40, 10.0, 2.0}};
  EXPECT_EQ(stem_sizes(one, 0.05, kZ95), std::vector<uint32_t>{40});
  EXPECT_TRUE(is_census(one[0], 40));
  EXPECT_EQ(stem_error(one, {40.0}, kZ95), 0);
  std::vector<ClusterStats> clusters{{40, 10.0, 2.0}, {100000, 10.0, 2.0}};
  EXPECT_FALSE(is_census(clusters[1], stem_sizes(clusters, 0.05, kZ95)[1]));
  EXPECT_EQ(stem_sizes(clusters, 1e-7, kZ95), (std::vector<uint32_t>{40, 100000}));
}

TEST(Stem, ErrorConstraintHoldsWithEqualityBeforeRounding) {
  std::vector<ClusterStats> clusters{{100, 10.0, 2.0}, {50, 40.0, 10.0}, {7, 1e4, 3e3},
                                     {1000000, 2.5, 0.1}, {3, 80.0, 0.0}};
  for (double eps : {0.01, 0.05, 0.2}) {
    auto m = stem_real_sizes(clusters, eps, kZ95);
    EXPECT_NEAR(stem_error(clusters, m, kZ95), eps, eps * 1e-12);
    auto rounded = stem_sizes(clusters, eps, kZ95);
    EXPECT_LE(stem_error(clusters, std::vector<double>(rounded.begin(), rounded.end()), kZ95), eps);
  }
}

TEST(Stem, KktBeatsPerClusterEquation3) {
  std::vector<ClusterStats> two{{100, 10.0, 2.0}, {50, 40.0, 10.0}};
  auto joint = stem_sizes(two, 0.05, kZ95);
  uint32_t separate0 = stem_sizes({two[0]}, 0.05, kZ95)[0];
  uint32_t separate1 = stem_sizes({two[1]}, 0.05, kZ95)[0];
  EXPECT_LT(stem_tau(two, joint), stem_tau(two, {separate0, separate1}));
}

TEST(Stem, ClusterWithoutVarianceTakesOneSample) {
  std::vector<ClusterStats> flat{{500, 7.0, 0.0}};
  EXPECT_EQ(stem_real_sizes(flat, 0.05, kZ95)[0], 0.0);
  EXPECT_EQ(stem_sizes(flat, 0.05, kZ95), std::vector<uint32_t>{1});
}

}  // namespace
}  // namespace sasskit::kselect
