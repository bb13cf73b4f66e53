#include "generator.hpp"

#include "libcommon/diag.hpp"
#include "rng.hpp"

namespace sasskit::gen {

KernelInfo traced_launch(const KernelModel& model, uint32_t id) {
  KernelInfo info = model.info();
  info.id = id;
  info.trace_file = "kernel-" + std::to_string(id) + ".traceg";
  info.stream_id = 0;
  info.shmem_base = kSharedBase;
  info.local_base = kLocalBase;
  info.nvbit_version = "1.5.5";
  info.tracer_version = 4;
  info.lineinfo = false;
  // The tracer's (v4) format reminder, kept verbatim by the text writer.
  info.comments = {
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
      "mem_width [adrrescompress?] [mem_addresses]"};
  return info;
}

void generate(const GenOptions& options, const TraceSink& sink) {
  if (options.kernels.empty()) fail_usage("no kernel to generate");
  if (options.repeat == 0 || options.params.imbalance == 0)
    fail_usage("--repeat and --imbalance must be at least 1");
  if (!options.streams.empty() && options.streams.size() != options.kernels.size())
    fail_usage("--stream gives " + std::to_string(options.streams.size()) + " streams for " +
               std::to_string(options.kernels.size()) + " kernels: one per kernel of --kernel");
  // Every model is built before anything is written, so bad parameters
  // stop the run before its first file.
  const Dialect dialect = Dialect::for_version(options.binary_version);
  DeviceMemory memory;
  std::vector<std::unique_ptr<KernelModel>> models;
  std::vector<std::vector<Memcpy>> copies;
  for (KernelKind kind : options.kernels) {
    models.push_back(make_kernel(kind, options.params, dialect, memory));
    copies.push_back(memory.take_copies());
  }
  CtaTrace cta;  // reused: one CTA in memory at a time
  uint32_t id = 0;
  for (uint32_t round = 0; round < options.repeat; ++round) {
    for (size_t i = 0; i < models.size(); ++i) {
      const KernelModel& model = *models[i];
      KernelInfo info = traced_launch(model, ++id);
      if (!options.streams.empty()) info.stream_id = options.streams[i];
      if (round == 0)
        for (const Memcpy& copy : copies[i]) sink.memcpy(copy);
      sink.kernel(info, InstTable{info.id, 0, model.table()});
      cta.kernel_id = info.id;
      for (uint64_t c = 0; c < model.cta_count(); ++c) {
        // Seeded per model, not per launch: a repeated launch reads the same
        // index data, so it gathers from the same addresses.
        model.cta(c, derive_seed(options.params.seed, i, c), cta);
        sink.cta(cta);
      }
      sink.kernel_end(info);
    }
  }
}

}  // namespace sasskit::gen
