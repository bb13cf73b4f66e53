// gpu-config-probe: prints the GPU model a tool would simulate, and the
// occupancy of one CTA shape on it. A test helper, not an installed tool.
#include <iostream>

#include "libcommon/cli.hpp"
#include "libcommon/gpu_options.hpp"

int main(int argc, char** argv) {
  sasskit::ToolApp app("gpu-config-probe", "Print the GPU model built from --config and options", argc, argv);
  sasskit::GpuOptions gpu_options(app);
  std::vector<unsigned> cta;
  app.app()
      .add_option("--cta", cta, "THREADS,REGS,SMEM: print CTAs per SM for this CTA")
      ->delimiter(',')
      ->expected(3);
  return app.run([&] {
    const sasskit::GpuConfig gpu = gpu_options.config();
    std::cout << gpu.name << ": " << gpu.num_sms << " SMs, " << gpu.l1d.size_bytes / 1024 << " KiB L1, "
              << gpu.l2.size_bytes / 1024 << " KiB L2\n";
    if (cta.size() == 3) {
      const auto occ = sasskit::occupancy(gpu, {cta[0], cta[1], cta[2]});
      std::cout << "ctas per SM: " << occ.ctas_per_sm << " (limited by " << occ.limiter << ")\n";
    }
  });
}
