// What a tool records of itself in provenance: its effective options
// (libcommon/cli.hpp) and its GPU model's fingerprint (gpu_options.hpp).
#include <gtest/gtest.h>

#include <optional>
#include <sstream>

#include "libcommon/cli.hpp"
#include "libcommon/gpu_options.hpp"
#include "tests/support/gpu_models.hpp"

using namespace sasskit;

namespace {

// Runs a ToolApp with pipe-sim-like options over `args`; returns the
// effective options it recorded, and `model` gets its model's record.
OptionValues options_of(std::vector<std::string> args, std::optional<ModelInUse>* model = nullptr) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ToolApp tool("tool", "test", static_cast<int>(argv.size()), argv.data(),
               {.threads = true, .force = true, .provenance = true});
  CLI::App& app = tool.app();
  GpuOptions gpu(app);
  std::string input = "-", output = "-", order = "round-robin";
  double s = 0.25;
  unsigned n = 3;
  bool pkp = false, memcpy = true;
  std::optional<unsigned> sm;
  app.add_option("input", input);
  app.add_option("-o,--output", output);
  app.add_option("--s", s)->capture_default_str();
  app.add_option("--order", order);
  app.add_option("--n", n);
  app.add_option("--sm", sm);
  app.add_flag("--pkp", pkp);
  app.add_flag("!--no-memcpy", memcpy);
  OptionValues seen;
  EXPECT_EQ(tool.run([&] {
              gpu.config();
              seen = tool.common().effective_options;
              if (model) *model = gpu.model_in_use();
            }),
            0);
  return seen;
}

// FNV-1a over the model's --dump-config lines but its comment and name:
// the definition sasskit-stream(5) gives, computed independently.
std::string fnv_of_dump(const GpuConfig& gpu) {
  std::istringstream lines(dump_config(gpu));
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("#", 0) == 0 || line.rfind("name = ", 0) == 0) continue;
    for (unsigned char c : line + "\n") h = (h ^ c) * 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace

TEST(EffectiveOptions, ParsedValuesThatDifferFromTheDefaultsOnly) {
  const OptionValues got =
      options_of({"in.s", "-o", "out", "-j4", "-q", "-f", "--no-provenance", "--s", ".10", "--order", "round-robin",
                  "--pkp", "--no-memcpy", "--n", "0x10", "--sm", "2", "--config", "qv100", "--l2-size", "4MiB"});
  // Not the input, output, -j, -q, -f, --no-provenance, --config or the model's keys;
  // not --order, given at its default.
  const OptionValues want = {{"n", "16"}, {"no-memcpy", "true"}, {"pkp", "true"}, {"s", "0.1"}, {"sm", "2"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(options_of({"--config", "qv100"}), OptionValues{});
  EXPECT_EQ(options_of({"--config", "qv100", "--pkp=false", "--s", "2.5e-1"}), OptionValues{});
}

TEST(EffectiveOptions, ModelKeysOfTheCommandLineAreNotedApartFromTheModelFile) {
  std::optional<ModelInUse> model;
  options_of({"--config", "qv100", "--l2-size", "4096KiB"}, &model);
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->name, "QV100");
  EXPECT_EQ(model->keys_given, (std::map<std::string, std::string>{{"l2-size", "4MiB"}}));
  GpuConfig gpu = test::parse_gpu({"--config", "qv100", "--l2-size", "4MiB"});
  EXPECT_EQ(model->fingerprint, model_fingerprint(gpu));
}

TEST(EffectiveOptions, KeysChangedAreThoseTheCommandLineGivesAnotherValue) {
  // qv100's own L2 size and line size, then another L2 size and ways.
  ModelInUse model;
  test::parse_gpu({"--config", "qv100", "--l2-size", "6MiB", "--l2-line-size", "128"}, &model);
  EXPECT_EQ(model.keys_given.size(), 2u);
  EXPECT_EQ(model.keys_changed, std::vector<std::string>{});
  test::parse_gpu({"--config", "qv100", "--l2-size", "12MiB", "--l1d-assoc", "4"}, &model);
  EXPECT_EQ(model.keys_changed, (std::vector<std::string>{"l1d-assoc", "l2-size"}));
  EXPECT_TRUE(is_hit_rate_key("l2-size"));
  EXPECT_TRUE(is_hit_rate_key("l1d-write-policy"));
  EXPECT_FALSE(is_hit_rate_key("l2-latency"));  // pipe-sim's timing uses it
  EXPECT_FALSE(is_hit_rate_key("l1d-line-size"));
}

TEST(ModelFingerprint, IsTheFnvHashOfTheModelsValuesNotItsName) {
  GpuConfig qv100 = test::bundled("qv100");
  const std::string fp = model_fingerprint(qv100);
  EXPECT_EQ(fp.size(), 16u);
  EXPECT_EQ(fp, fnv_of_dump(qv100));
  GpuConfig renamed = qv100;
  renamed.name = "MyVolta";
  EXPECT_EQ(model_fingerprint(renamed), fp);
  GpuConfig bigger_l2 = qv100;
  bigger_l2.l2.size_bytes *= 2;
  EXPECT_NE(model_fingerprint(bigger_l2), fp);
  EXPECT_NE(model_fingerprint(test::bundled("a100")), fp);
}
