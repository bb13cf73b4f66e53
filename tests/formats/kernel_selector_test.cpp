#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/kernel_selector.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;

namespace {

KernelInfo launch(uint32_t id, std::string name) {
  KernelInfo k;
  k.id = id;
  k.name = std::move(name);
  return k;
}

// The application the tests select from: launches 1..6 alternate a
// templated gemm in a namespace and a plain reduce.
std::vector<KernelInfo> app() {
  std::vector<KernelInfo> out;
  for (uint32_t id = 1; id <= 6; ++id)
    out.push_back(id % 2 ? launch(id, "_ZN4blas4gemmIfLi4EEEvPKT_Pfi") : launch(id, "_Z6reducePKfPf"));
  return out;
}

std::vector<uint32_t> kept(KernelSelector selector) {
  std::vector<uint32_t> ids;
  for (const KernelInfo& k : app())
    if (selector.select(k)) ids.push_back(k.id);
  return ids;
}

std::vector<uint32_t> kept(const KernelSelectionOptions& options) { return kept(KernelSelector(options)); }

}  // namespace

TEST(KernelSelector, KeepsEveryKernelByDefault) {
  EXPECT_EQ(kept(KernelSelector{}), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(KernelSelector, NameMatchesTheFunctionNameByDefault) {
  EXPECT_EQ(kept({.name = "gemm"}), (std::vector<uint32_t>{1, 3, 5}));
  EXPECT_EQ(kept({.name = "gem"}), (std::vector<uint32_t>{}));  // a plain name is matched whole
  EXPECT_EQ(kept({.name = "blas::gemm"}), (std::vector<uint32_t>{}));
}

TEST(KernelSelector, NameBaseChoosesTheFormMatched) {
  EXPECT_EQ(kept({.name = "_Z6reducePKfPf", .name_base = "mangled"}), (std::vector<uint32_t>{2, 4, 6}));
  EXPECT_EQ(kept({.name = "_Z6reducePKfPf"}), (std::vector<uint32_t>{}));
  EXPECT_EQ(kept({.name = "regex:^void blas::gemm<float, 4>\\(", .name_base = "demangled"}),
            (std::vector<uint32_t>{1, 3, 5}));
}

TEST(KernelSelector, RegexSearchesTheName) {
  EXPECT_EQ(kept({.name = "regex:em|duc"}), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(kept({.name = "regex:^red"}), (std::vector<uint32_t>{2, 4, 6}));
  EXPECT_EQ(kept({.name = "regex:^emm"}), (std::vector<uint32_t>{}));
}

TEST(KernelSelector, SkipAndCountCountTheLaunchesThatPassTheFilters) {
  EXPECT_EQ(kept({.name = "reduce", .launch_skip = 1}), (std::vector<uint32_t>{4, 6}));
  EXPECT_EQ(kept({.name = "reduce", .launch_skip = 1, .launch_count = 1}), (std::vector<uint32_t>{4}));
  EXPECT_EQ(kept({.ids = "2-6", .name = "gemm", .launch_count = 1}), (std::vector<uint32_t>{3}));
  EXPECT_EQ(kept({.launch_skip = 4, .launch_count = 5}), (std::vector<uint32_t>{5, 6}));
}

TEST(KernelSelector, KeepOnlyNarrowsBeforeSkipping) {
  KernelSelector planned({.launch_skip = 1});
  planned.keep_only({2, 3, 5}, "--plan");
  EXPECT_EQ(kept(planned), (std::vector<uint32_t>{3, 5}));
}

TEST(KernelSelector, ABadRegexIsAUsageErrorNamingIt) {
  try {
    KernelSelector selector({.name = "regex:gemm(("});
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("'regex:gemm(('"), std::string::npos) << e.what();
  }
}

TEST(KernelSelector, NamesAreData) {
  // A name that looks like a pattern is compared as text, NUL bytes and all.
  KernelSelector exact({.name = "a.*", .name_base = "mangled"});
  EXPECT_FALSE(exact.select(launch(1, "abc")));
  EXPECT_TRUE(exact.select(launch(2, "a.*")));
  KernelSelector regex({.name = "regex:b$", .name_base = "mangled"});
  EXPECT_TRUE(regex.select(launch(3, std::string("a\0b", 3))));
  // A long name is searched without exhausting the stack (std::regex would).
  KernelSelector greedy({.name = "regex:(a|b)*c", .name_base = "mangled"});
  EXPECT_FALSE(greedy.select(launch(4, std::string(1 << 20, 'a'))));
}

namespace {

// The message fail_if_none_kept throws after the whole app, or "" when it keeps something.
std::string none_kept(KernelSelector selector) {
  for (const KernelInfo& k : app()) selector.select(k);
  try {
    selector.fail_if_none_kept("app");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Failure);
    EXPECT_EQ(e.where(), "app");
    return e.what();
  }
  return "";
}

}  // namespace

TEST(KernelSelector, KeepingNothingFailsWithWhatEachFilterKept) {
  EXPECT_EQ(none_kept(KernelSelector({.name = "gemm"})), "");
  EXPECT_EQ(none_kept(KernelSelector{}), "");
  EXPECT_EQ(none_kept(KernelSelector({.name = "gemv"})), "no kernel kept: of its 6 launches, -k gemv keeps 0");
  EXPECT_EQ(none_kept(KernelSelector({.ids = "2-4", .name = "regex:^red", .launch_skip = 2, .launch_count = 1})),
            "no kernel kept: of its 6 launches, --kernels 2-4 keeps 3, -k regex:^red keeps 2, --launch-skip 2 keeps 0, "
            "--launch-count 1 keeps 0");
  KernelSelector planned({.name = "reduce"});
  planned.keep_only({1, 3}, "--plan");
  EXPECT_EQ(none_kept(planned), "no kernel kept: of its 6 launches, -k reduce keeps 3, --plan keeps 0");
}
