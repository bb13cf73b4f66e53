#include <gtest/gtest.h>

#include "evaluate.hpp"
#include "libcommon/diag.hpp"
#include "methods.hpp"

namespace sasskit::kselect {
namespace {

Profile two_kernel_profile() {
  Profile p;
  Rng rng(7);
  for (int i = 0; i < 400; ++i) {
    p.add(p.size() + 1, "gemm", (i % 3 ? 1000 : 3000) + 100 * rng.unit());
    p.add(p.size() + 1, "relu", 200 + 150 * rng.unit());
  }
  return p;
}

double weight_of_cluster(const Plan& plan, uint32_t c) {
  double w = 0;
  for (const auto& e : plan.entries)
    if (e.cluster == c) w += e.weight;
  return w;
}

TEST(StemMethod, WeightsOfEachClusterAddUpToItsSize) {
  Profile p = two_kernel_profile();
  MethodOptions o;
  Selection s = make_selector(p, o)(42);
  ASSERT_GE(s.plan.clusters.size(), 3u);  // gemm's two modes split, relu kept or split
  uint64_t invocations = 0;
  for (uint32_t c = 0; c < s.plan.clusters.size(); ++c) {
    EXPECT_NEAR(weight_of_cluster(s.plan, c), double(s.plan.clusters[c].size), 1e-9);
    invocations += s.plan.clusters[c].size;
  }
  EXPECT_EQ(invocations, p.size());
  ASSERT_TRUE(s.plan.error_bound);
  EXPECT_LE(*s.plan.error_bound, o.epsilon);
  for (size_t i = 0; i < s.rows.size(); ++i) EXPECT_EQ(s.plan.entries[i].id, p.id[s.rows[i]]);
}

TEST(StemMethod, SeedMakesDrawsRepeatable) {
  Profile p = two_kernel_profile();
  MethodOptions o;
  o.epsilon = 0.005;  // many samples, so two seeds surely differ
  Selector select = make_selector(p, o);
  EXPECT_EQ(select(3).plan, select(3).plan);
  EXPECT_NE(select(3).plan.entries, select(4).plan.entries);
}

TEST(Evaluate, MeanErrorStaysUnderTheBound) {
  Profile p = two_kernel_profile();
  MethodOptions o;
  o.root = false;  // one cluster per name: many samples, real sampling error
  Evaluation e = evaluate(p, make_selector(p, o), 1, 50);
  EXPECT_GT(e.mean_error, 0);
  EXPECT_LT(e.mean_error, o.epsilon);
  EXPECT_LE(e.mean_error, e.p95_error);
  EXPECT_GT(e.speedup, 1);
}

TEST(Pka, IdenticalKernelsGiveOneCluster) {
  Profile p;
  p.feature_names = {"loads", "stores", "insts"};
  for (int i = 0; i < 50; ++i) {
    p.add(i + 1, "k", 5000);
    p.features.insert(p.features.end(), {10, 20, 30000});
  }
  MethodOptions o;
  o.method = "pka";
  Selection s = make_selector(p, o)(1);
  EXPECT_EQ(s.plan.params.at("k"), 1);
  ASSERT_EQ(s.plan.entries.size(), 1u);
  EXPECT_EQ(s.plan.entries[0].id, 1u);  // first chronological
  EXPECT_EQ(s.plan.entries[0].weight, 50);
}

TEST(Pka, TwoKindsOfKernelsGiveTwoClusters) {
  Profile p;
  p.feature_names = {"loads", "insts"};
  for (int i = 0; i < 60; ++i) {
    bool big = i % 2;
    p.add(i + 1, big ? "big" : "small", big ? 9000 + i : 1000 + i);
    p.features.insert(p.features.end(), {big ? 500.0 + i : 10.0 + i, big ? 90000.0 : 10000.0});
  }
  MethodOptions o;
  o.method = "pka";
  Selection s = make_selector(p, o)(1);
  EXPECT_EQ(s.plan.params.at("k"), 2);
  ASSERT_EQ(s.plan.entries.size(), 2u);
  EXPECT_EQ(s.plan.entries[0].id, 1u);
  EXPECT_EQ(s.plan.entries[1].id, 2u);
  EXPECT_LT(score(p, s).error, 0.05);
}

TEST(Sieve, TiersByCoefficientOfVariation) {
  Profile p;
  for (int i = 0; i < 30; ++i) {
    p.add(p.size() + 1, "flat", 100);  // tier 1
    p.insts.push_back(1000);
    p.ctas.push_back(8);
    p.add(p.size() + 1, "mild", 100);  // tier 2: CoV ~0.05, dominant CTA count 16
    p.insts.push_back(1000 + 5 * (i % 20));
    p.ctas.push_back(i < 3 ? 4 : 16);
    p.add(p.size() + 1, "wild", i % 2 ? 900 : 100);  // tier 3: two modes
    p.insts.push_back(i % 2 ? 9000 + i : 1000 + i);
    p.ctas.push_back(32);
  }
  MethodOptions o;
  o.method = "sieve";
  Selection s = make_selector(p, o)(1);
  ASSERT_EQ(s.plan.clusters.size(), 4u);
  EXPECT_EQ(s.plan.clusters[0].label, "flat");
  EXPECT_EQ(s.plan.clusters[1].label, "mild");
  EXPECT_EQ(s.plan.clusters[2].label, "wild#0");
  EXPECT_EQ(s.plan.clusters[3].label, "wild#1");
  // Entries come by id: flat (1), wild#0 (3), wild#1 (6), mild (11: first with 16 CTAs).
  ASSERT_EQ(s.plan.entries.size(), 4u);
  EXPECT_EQ(s.plan.entries[0].id, 1u);
  EXPECT_EQ(s.plan.entries[3].id, 11u);
  EXPECT_EQ(s.plan.entries[3].cluster, 1u);
  EXPECT_EQ(s.plan.clusters[2].size, 15u);
  EXPECT_LT(score(p, s).error, 0.05);
}

TEST(Photon, MatchesAnyEarlierRepresentativePreferringTheClosestWarpCount) {
  Profile p;
  auto add = [&](const char* name, Bbv v, uint64_t warps) {
    p.add(p.size() + 1, name, 100);
    p.bbv.push_back(std::move(v));
    p.warps.push_back(warps);
  };
  // Shares (0.60, 0.40) and (0.66, 0.34) lie 11% apart: two representatives at 10%.
  add("k", {{0, 600}, {64, 400}}, 8);
  add("k", {{0, 606}, {64, 404}}, 8);     // the same shares: joins 1
  add("j", {{0, 660}, {64, 340}}, 32);    // 11% from 1: a representative
  add("k", {{0, 1200}, {64, 800}}, 16);   // twice the instructions, same shares: joins 1
  add("m", {{0, 625}, {64, 375}}, 30);    // 4.9% from 1, 6.7% from 3: 3's warp count is closer
  MethodOptions o;
  o.method = "photon";
  o.distance = 0.10;
  Selection s = make_selector(p, o)(1);
  ASSERT_EQ(s.plan.clusters.size(), 2u);
  EXPECT_EQ(s.plan.clusters[0].size, 3u);
  EXPECT_EQ(s.plan.clusters[1].size, 2u);
  ASSERT_EQ(s.plan.entries.size(), 2u);
  EXPECT_EQ(s.plan.entries[0].id, 1u);
  EXPECT_EQ(s.plan.entries[1].id, 3u);
  EXPECT_EQ(s.plan.entries[1].weight, 2.0);
}

TEST(Pka, KDoesNotChangeWithTheSeed) {
  Profile p;
  Rng rng(3);
  p.feature_names = {"a", "b", "c"};
  for (int i = 0; i < 60; ++i) {
    const int mode = i % 4;
    p.add(p.size() + 1, "k" + std::to_string(mode), 100 * (mode + 1) + rng.unit());
    for (int f = 0; f < 3; ++f) p.features.push_back(10.0 * ((mode + f) % 4) + rng.unit());
  }
  MethodOptions o;
  o.method = "pka";
  Selector select = make_selector(p, o);
  const Plan first = select(1).plan;
  for (uint64_t seed : {2, 3, 17}) EXPECT_EQ(select(seed).plan, first) << seed;
}

TEST(RandomMethod, PicksAboutTheRate) {
  Profile p = two_kernel_profile();
  MethodOptions o;
  o.method = "random";
  o.rate = 0.1;
  Selection s = make_selector(p, o)(5);
  EXPECT_GT(s.plan.entries.size(), 40u);
  EXPECT_LT(s.plan.entries.size(), 130u);
  EXPECT_NEAR(weight_of_cluster(s.plan, 0), double(p.size()), 1e-6);
}

TEST(Methods, MissingDataIsReported) {
  Profile p = two_kernel_profile();
  for (const char* m : {"pka", "sieve", "photon"}) {
    MethodOptions o;
    o.method = m;
    EXPECT_THROW(make_selector(p, o), Error) << m;
  }
}

TEST(Methods, OneLaunchIsKeptWithWeightOneWhateverTheMethod) {
  set_quiet(true);  // the warning that says why
  Profile p;
  p.add(7, "gemm", 1200);  // no features, instructions or basic blocks
  for (const char* m : {"stem", "random", "pka", "sieve", "photon"}) {
    MethodOptions o;
    o.method = m;
    Selection s = make_selector(p, o)(1);
    EXPECT_EQ(s.plan.method, m);
    ASSERT_EQ(s.plan.entries.size(), 1u) << m;
    EXPECT_EQ(s.plan.entries[0].id, 7u);
    EXPECT_EQ(s.plan.entries[0].weight, 1);
    ASSERT_EQ(s.plan.clusters.size(), 1u);
    EXPECT_EQ(s.plan.clusters[0].size, 1u);
    EXPECT_EQ(s.plan.total, 1200);
    EXPECT_EQ(score(p, s).error, 0);
  }
  set_quiet(false);
  MethodOptions unknown;
  unknown.method = "psychic";
  EXPECT_THROW(make_selector(p, unknown), Error);
}

}  // namespace
}  // namespace sasskit::kselect
