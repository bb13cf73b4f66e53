// Generated traces through the Accel-Sim text writer and back through the
// reader: the text holds exactly the generated model.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "formats/accelsim.hpp"
#include "generator.hpp"
#include "libcommon/io.hpp"
#include "program.hpp"
#include "trace_dir.hpp"

using namespace sasskit;
using namespace sasskit::gen;

namespace {

struct Kernel {
  KernelInfo info;
  std::vector<StaticInst> table;
  std::vector<CtaTrace> ctas;
};

// Reads one kernel trace text back into a model.
Kernel read_back(const std::string& text, const std::string& name) {
  Kernel k;
  std::istringstream in(text);
  accelsim::read_kernel_trace(
      in, name,
      accelsim::KernelSink{[&](const KernelInfo& info) { k.info = info; },
                           [&](const InstTable& t) {
                             k.table.insert(k.table.end(), t.insts.begin(), t.insts.end());
                           },
                           [&](const CtaTrace& c) { k.ctas.push_back(c); }});
  return k;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(GeneratedText, ReadsBackAsTheGeneratedModel) {
  for (uint32_t version : {61u, 70u, 86u}) {
    GenOptions opt;
    opt.kernels = {KernelKind::VecAdd, KernelKind::Gemm, KernelKind::Stencil, KernelKind::Reduce,
                   KernelKind::Gather};
    if (version >= 70) opt.kernels.push_back(KernelKind::Tensor);
    opt.params.size = 100;
    opt.params.block = 64;
    opt.binary_version = version;
    std::vector<Kernel> generated;
    std::vector<std::string> texts;
    std::unique_ptr<std::ostringstream> out;
    std::unique_ptr<accelsim::KernelTraceWriter> writer;
    generate(opt, TraceSink{[](const Memcpy&) {},
                            [&](const KernelInfo& k, const InstTable& t) {
                              generated.push_back({k, t.insts, {}});
                              out = std::make_unique<std::ostringstream>();
                              writer = std::make_unique<accelsim::KernelTraceWriter>(*out, k);
                              writer->insts(t);
                            },
                            [&](const CtaTrace& c) {
                              generated.back().ctas.push_back(c);
                              writer->cta(c);
                            },
                            [&](const KernelInfo&) {
                              writer.reset();
                              texts.push_back(out->str());
                            }});
    ASSERT_EQ(texts.size(), opt.kernels.size());
    for (size_t i = 0; i < texts.size(); ++i) {
      SCOPED_TRACE(generated[i].info.name + " sm_" + std::to_string(version));
      const Kernel back = read_back(texts[i], generated[i].info.trace_file);
      EXPECT_EQ(back.info, generated[i].info);
      EXPECT_EQ(back.table, generated[i].table);
      EXPECT_EQ(back.ctas, generated[i].ctas);
    }
  }
}

TEST(TraceDir, WritesTheListAndOneFilePerLaunchIdenticallyTwice) {
  const auto base =
      std::filesystem::temp_directory_path() / ("sasskit-gen-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  GenOptions opt;
  opt.kernels = {KernelKind::Gather, KernelKind::VecAdd};
  opt.repeat = 2;
  opt.params.size = 2048;
  write_trace_dir(opt, (base / "a").string());
  write_trace_dir(opt, (base / "b").string());
  std::istringstream list(slurp(base / "a" / "kernelslist.g"));
  const auto entries = accelsim::read_kernel_list(list, "kernelslist.g");
  // gather's idx and in, vecadd's a and b, then the four launches
  ASSERT_EQ(entries.size(), 8u);
  EXPECT_EQ(std::get<std::string>(entries[7]), "kernel-4.traceg");
  for (const char* f : {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg", "kernel-3.traceg",
                        "kernel-4.traceg"}) {
    EXPECT_FALSE(slurp(base / "a" / f).empty()) << f;
    EXPECT_EQ(slurp(base / "a" / f), slurp(base / "b" / f)) << f;
  }
  std::filesystem::remove_all(base);
}

// The address-mode rule the generator uses reproduces the modes the real
// NVBit tracer chose in the shared traces (mode 1 and mode 2 cases).
TEST(TracerAddrMode, MatchesTheRealTraces) {
  const std::filesystem::path data(SASSKIT_SHARED_DATA);
  if (!std::filesystem::is_directory(data)) GTEST_SKIP() << "needs ../shared/data";
  for (const char* name :
       {"traces/vectoradd-sm61/kernel-1.traceg", "traces/wmma-sm70/kernel-1.traceg"}) {
    SCOPED_TRACE(name);
    std::vector<StaticInst> table;
    size_t checked = 0;
    Input in((data / name).string());
    accelsim::read_kernel_trace(
        in.stream(), name,
        accelsim::KernelSink{
            [](const KernelInfo&) {},
            [&](const InstTable& t) { table.insert(table.end(), t.insts.begin(), t.insts.end()); },
            [&](const CtaTrace& c) {
              for (const auto& w : c.warps) {
                const uint64_t* addrs = w.addrs.data();
                size_t mem = 0;
                for (size_t i = 0; i < w.inst.size(); ++i) {
                  if (table[w.inst[i]].mem_width == 0) continue;
                  const size_t n = active_lanes(w.mask[i]);
                  if (n > 0) {
                    EXPECT_EQ(uint8_t(tracer_addr_mode(w.mask[i], {addrs, n})), w.addr_mode[mem]);
                    ++checked;
                  }
                  addrs += n;
                  ++mem;
                }
              }
            }});
    EXPECT_GT(checked, 10u);
  }
}
