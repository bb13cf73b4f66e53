#include "run.hpp"

#include "cta_sample.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/io.hpp"

namespace sasskit::ctasample {
void run(const RunOptions& o, const GpuConfig& gpu, const ModelInUse& model, const CommonOptions& common) {
  Options options;
  options.policy = parse_policy(o.placement.policy);
  options.serial_kernels = o.placement.serial_kernels;
  options.sample = SampleOptions{o.keep == "all", o.sm, o.top, o.estimate == "check"};
  options.accept_other_gpu = o.accept_other_gpu;
  options.gpu_fingerprint = model.fingerprint;
  check_options(gpu, options);
  std::optional<CtaLog> log;
  if (!o.replay.empty()) log = CtaLog::read(o.replay);
  options.replay = log ? &*log : nullptr;

  Input in(o.io.input);
  stream::Reader reader(in.stream(), in.name());
  const bool json = o.io.format == "json";
  Output out(o.io.output, json ? OutputKind::Text : OutputKind::Binary, common.force);
  stream::Stage self = stream::this_stage("cta-sample", common.argv, common.no_provenance, common.effective_options, &model);
  const std::unique_ptr<Sink> sink = json ? json_sink(out.stream(), report_provenance(reader.header().provenance, std::move(self)))
                                          : stream_sink(out.stream(), out.name(), reader.header(), std::move(self));
  CtaSampleStream sampler(gpu, options, *sink);
  sampler.read(reader);
  in.check_read_error();
  out.commit();
}

}  // namespace sasskit::ctasample
