#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include "tests/support/gpu_models.hpp"
#include "libcommon/cli.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using sasskit::test::bundled;
using sasskit::test::parse_gpu;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir() {
  fs::path dir = fs::temp_directory_path() / ("sasskit-gpu-options-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path path = scratch_dir() / name;
  std::ofstream(path) << text;
  return path;
}

// What --dump-config prints for these arguments (it ends by throwing CLI::Success).
std::string dump_for(const std::vector<std::string>& args) {
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  std::vector<std::string> with_dump = args;
  with_dump.push_back("--dump-config");
  EXPECT_THROW(parse_gpu(with_dump), CLI::Success);
  std::cout.rdbuf(old);
  return captured.str();
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST(GpuOptions, BundledModelsByBareNameAllValidate) {
  for (const auto& name : test::bundled_models()) {
    SCOPED_TRACE(name);
    const GpuConfig gpu = bundled(name);
    EXPECT_GT(gpu.num_sms, 0u);
    EXPECT_NO_THROW(validate(gpu));
  }
  EXPECT_EQ(bundled("qv100").name, "QV100");
  EXPECT_EQ(bundled("qv100.cfg").num_sms, 80u);
  EXPECT_EQ(bundled("h100").num_sms, 132u);
  EXPECT_EQ(bundled("h100-pcie").num_sms, 114u);
}

TEST(GpuOptions, CommandLineOverridesTheConfigFile) {
  const GpuConfig base = bundled("qv100");
  const GpuConfig gpu = parse_gpu({"--config", "qv100", "--l2-size=8MiB", "--unit-sp-latency", "6"});
  EXPECT_EQ(gpu.l2.size_bytes, 8u << 20);
  EXPECT_EQ(gpu.unit(UnitClass::Sp).latency, 6u);
  EXPECT_EQ(gpu.num_sms, base.num_sms);
  EXPECT_EQ(gpu.l2.assoc, base.l2.assoc);
}

TEST(GpuOptions, SweepIsALoopOverOneOption) {
  for (const char* size : {"2MiB", "4MiB", "8MiB", "16MiB", "32MiB"}) {
    EXPECT_NO_THROW(parse_gpu({"--config", "qv100", std::string("--l2-size=") + size})) << size;
  }
}

TEST(GpuOptions, RepeatedOptionTakesTheLast) {
  EXPECT_EQ(parse_gpu({"--config", "qv100", "--num-sms", "10", "--num-sms", "20"}).num_sms, 20u);
}

TEST(GpuOptions, ContradictionFromTheCommandLineIsAnErrorNamingTheKey) {
  try {
    parse_gpu({"--config", "qv100", "--l1d-sector-size", "48"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("l1d-sector-size"), std::string::npos);
  }
}

TEST(GpuOptions, EveryKeyIsAnOption) {
  CLI::App app("test");
  GpuOptions options(app);
  for (const auto& key : gpu_config_keys()) {
    EXPECT_NO_THROW(app.get_option("--" + key)) << key;
  }
  EXPECT_NO_THROW(app.get_option("--dump-config"));
  EXPECT_NO_THROW(app.get_option("--import-accelsim"));
}

TEST(GpuOptions, DumpReadsBackUnchanged) {
  for (const auto& name : test::bundled_models()) {
    SCOPED_TRACE(name);
    const std::string dump = dump_for({"--config", name, "--l2-size", "16MiB"});
    const fs::path file = write_file(name + "-dump.cfg", dump);
    EXPECT_EQ(dump_for({"--config", file.string()}), dump);
    EXPECT_NE(dump.find("\nl2-size = 16MiB\n"), std::string::npos);
  }
}

TEST(GpuOptions, UnknownKeyInAConfigFileIsAnError) {
  const fs::path file =
      write_file("typo.cfg", slurp(SASSKIT_SOURCE_DIR "/configs/qv100.cfg") + "l2-szie = 1\n");
  EXPECT_THROW(parse_gpu({"--config", file.string()}), CLI::ConfigError);
}

TEST(GpuOptions, MissingKeyInAConfigFileNamesIt) {
  std::string text = slurp(SASSKIT_SOURCE_DIR "/configs/qv100.cfg");
  text.erase(text.find("num-sms = 80"), std::string("num-sms = 80").size());
  const fs::path file = write_file("partial.cfg", text);
  try {
    parse_gpu({"--config", file.string()});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'num-sms'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_gpu({"--config", file.string(), "--num-sms", "8"}).num_sms, 8u);
}

TEST(GpuOptions, ConfigPathEnvironmentFindsUserModels) {
  std::string text = slurp(SASSKIT_SOURCE_DIR "/configs/qv100.cfg");
  text.replace(text.find("name = \"QV100\""), std::string("name = \"QV100\"").size(), "name = \"MyGPU\"");
  write_file("mygpu.cfg", text);
  ::setenv("SASSKIT_CONFIG_PATH", ("/nonexistent:" + scratch_dir().string()).c_str(), 1);
  EXPECT_EQ(bundled("mygpu").name, "MyGPU");
  EXPECT_EQ(resolve_config_file("no-such-gpu"), "");
  ::unsetenv("SASSKIT_CONFIG_PATH");
  EXPECT_THROW(bundled("no-such-gpu"), CLI::ValidationError);
}

TEST(GpuOptions, ManPageDocumentsEveryKey) {
  const std::string man = slurp(SASSKIT_SOURCE_DIR "/man/sasskit-config.5");
  ASSERT_FALSE(man.empty());
  for (const auto& key : gpu_config_keys()) {
    // roff escapes every '-' in option names as '\-'
    std::string escaped;
    for (char c : key) escaped += c == '-' ? std::string("\\-") : std::string(1, c);
    EXPECT_NE(man.find(escaped), std::string::npos) << key << " is not in man/sasskit-config.5";
  }
}

TEST(GpuOptions, ImportIsTheBaseThatConfigAndOptionsOverride) {
  const std::string dir = SASSKIT_SHARED_DATA "/reference-configs/accel-sim/SM7_QV100";
  if (!fs::exists(dir)) GTEST_SKIP() << "needs ../shared/data";
  const GpuConfig imported = parse_gpu({"--import-accelsim", dir});
  EXPECT_EQ(imported.name, "QV100");
  EXPECT_EQ(imported.l1d.latency, 20u);
  const GpuConfig overridden = parse_gpu({"--import-accelsim", dir, "--num-sms", "40"});
  EXPECT_EQ(overridden.num_sms, 40u);
  EXPECT_EQ(overridden.l1d.latency, 20u);
  const GpuConfig with_file = parse_gpu({"--import-accelsim", dir, "--config", "qv100"});
  EXPECT_EQ(with_file.l1d.latency, bundled("qv100").l1d.latency);
}

namespace {

// A tool's ToolApp and GpuOptions over `args`; `body` runs as the tool's.
// Returns the exit status and what the tool printed on stdout.
std::pair<int, std::string> run_tool(std::vector<std::string> args,
                                     const std::function<void(CLI::App&, const GpuOptions&)>& body) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ToolApp tool("tool", "test", static_cast<int>(argv.size()), argv.data());
  GpuOptions options(tool);
  std::ostringstream captured;  // after ToolApp, which sets up std::cout
  auto* old = std::cout.rdbuf(captured.rdbuf());
  const int status = tool.run([&] { body(tool.app(), options); });
  std::cout.rdbuf(old);
  return {status, captured.str()};
}

}  // namespace

TEST(GpuOptions, AToolRegistersOnlyTheKeysItsCommandLineNames) {
  bool ran = false;
  EXPECT_EQ(run_tool({"--config", "qv100", "--num-sms=8", "--l2-size", "4MiB"},
                     [&](CLI::App& app, const GpuOptions& options) {
                       EXPECT_NE(app.get_option_no_throw("--num-sms"), nullptr);
                       EXPECT_NE(app.get_option_no_throw("--l2-size"), nullptr);
                       EXPECT_EQ(app.get_option_no_throw("--l1d-size"), nullptr);
                       const GpuConfig gpu = options.config();
                       EXPECT_EQ(gpu.num_sms, 8u);
                       EXPECT_EQ(gpu.l2.size_bytes, 4u << 20);
                       EXPECT_EQ(gpu.l1d.size_bytes, bundled("qv100").l1d.size_bytes);  // from the file
                       ran = true;
                     })
                .first,
            0);
  EXPECT_TRUE(ran);
}

TEST(GpuOptions, AToolsHelpListsEveryKey) {
  const auto [status, help] = run_tool({"--help"}, [](CLI::App&, const GpuOptions&) { FAIL() << "ran"; });
  EXPECT_EQ(status, 0);
  for (const auto& key : gpu_config_keys()) EXPECT_NE(help.find("--" + key + " "), std::string::npos) << key;
}
