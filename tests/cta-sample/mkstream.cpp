// Test helper for cta-sample's CLI cases: writes a small stream of synthetic
// kernels to stdout. Each argument is one kernel:
//   id=1,grid=8,block=64,regs=32,smem=0,stream=0,work=10:40
// CTA i runs work[i % n] FFMAs per warp (synthetic.hpp).
#include <iostream>
#include <map>
#include <sstream>

#include "synthetic.hpp"

using namespace sasskit;

namespace {

std::map<std::string, std::string> fields(const std::string& spec) {
  std::map<std::string, std::string> f;
  std::istringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    auto eq = item.find('=');
    f[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return f;
}

std::vector<uint32_t> work_list(const std::string& text) {
  std::vector<uint32_t> work;
  std::istringstream in(text);
  for (std::string w; std::getline(in, w, ':');) work.push_back(static_cast<uint32_t>(std::stoul(w)));
  return work;
}

}  // namespace

int main(int argc, char** argv) {
  std::ostringstream out;
  stream::Writer writer(out, "stdout", stream::Header{}, stream::Stage{"mkstream", "0", {}});
  for (int a = 1; a < argc; ++a) {
    auto f = fields(argv[a]);
    KernelInfo k = synthetic_kernel(static_cast<uint32_t>(std::stoul(f["id"])),
                                    static_cast<uint32_t>(std::stoul(f["grid"])),
                                    static_cast<uint32_t>(std::stoul(f["block"])));
    k.nregs = static_cast<uint32_t>(std::stoul(f.count("regs") ? f["regs"] : "32"));
    k.shmem = static_cast<uint32_t>(std::stoul(f.count("smem") ? f["smem"] : "0"));
    k.stream_id = std::stoull(f.count("stream") ? f["stream"] : "0");
    auto work = work_list(f.count("work") ? f["work"] : "1");
    writer.write(k);
    writer.write(synthetic_table(k.id));
    const uint32_t warps = (k.block.x + 31) / 32;
    for (uint32_t i = 0; i < k.grid.x; ++i) writer.write(synthetic_cta(k.id, i, warps, work[i % work.size()]));
  }
  writer.finish();
  std::cout << out.str();
  return 0;
}
