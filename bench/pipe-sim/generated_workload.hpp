// A workload made by sasskit-gen's library in memory, for pipe-sim's
// benchmark and tests.
#pragma once

#include "generator.hpp"
#include "workload.hpp"

namespace sasskit::pipesim {

inline Workload generated_workload(const gen::GenOptions& g) {
  Workload w;
  gen::TraceSink sink;
  sink.memcpy = [](const Memcpy&) {};
  sink.kernel = [&](const KernelInfo& k, const InstTable& t) {
    w.kernels.push_back(KernelInput{.info = k, .table = t.insts});
  };
  sink.cta = [&](const CtaTrace& c) { w.kernels.back().ctas.push_back(c); };
  sink.kernel_end = [](const KernelInfo&) {};
  gen::generate(g, sink);
  return w;
}

}  // namespace sasskit::pipesim
