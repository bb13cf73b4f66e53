// STEM on the STEM authors' real CASIO kernel durations (RTX 2080).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "evaluate.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

const std::string kCasio = std::string(SASSKIT_SHARED_DATA) + "/profiles/casio-kernel-durations-rtx2080.csv";

TEST(Casio, StemMeanErrorOver100DrawsIsBelowEpsilon) {
  if (!std::filesystem::exists(kCasio)) GTEST_SKIP() << "needs ../shared/data";
  std::ifstream in(kCasio, std::ios::binary);
  Profile p = from_export(profile::read_profile(in, kCasio));
  EXPECT_EQ(p.names.size(), 6u);
  for (bool root : {true, false}) {
    MethodOptions o;
    o.root = root;
    Evaluation e = evaluate(p, make_selector(p, o), 1, 100);
    std::cout << "CASIO stem " << (root ? "+root" : "no-root") << ": clusters " << e.clusters
              << ", samples " << e.samples << ", speedup " << e.speedup << ", mean error "
              << 100 * e.mean_error << "%, p95 " << 100 * e.p95_error << "%, bound "
              << 100 * *e.error_bound << "%\n";
    EXPECT_LT(e.mean_error, o.epsilon);
    EXPECT_LE(*e.error_bound, o.epsilon);
  }
}

}  // namespace
}  // namespace sasskit::kselect
