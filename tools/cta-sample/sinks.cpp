#include "sinks.hpp"

#include "formats/sched_record.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/json.hpp"

namespace sasskit::ctasample {
namespace {

class StreamSink : public stream::StreamSink<SampledKernel> {
 public:
  using stream::StreamSink<SampledKernel>::StreamSink;
  void result(const SampledKernel& k) override {
    writer().write(k.schedule);
    if (k.sample) writer().write(*k.sample);
  }
};

class JsonSink : public stream::SummarySink<SampledKernel> {
 public:
  JsonSink(std::ostream& out, std::vector<stream::Stage> provenance)
      : SummarySink(out), json_(summary()), provenance_(std::move(provenance)) {
    json_.begin_object().key("kernels").begin_array();
  }

  void result(const SampledKernel& k) override {
    const std::optional<KernelSample>& sample = k.sample;
    json_.begin_object();
    json_.field("kernel_id", k.kernel.id()).field("kernel_name", k.kernel.info().name).field("policy", k.schedule.policy);
    json_.field("ctas_per_sm", k.ctas_per_sm).field("ctas_total", k.num_ctas);
    json_.field("ctas_kept", sample ? sample->ctas.size() : uint64_t(k.num_ctas));
    json_.key("sampled_sm");
    if (sample && !sample->sms.empty())
      json_.value(sample->sms.front());
    else
      json_.null();
    json_.key("sampled_sms").array(sample ? sample->sms : std::vector<uint32_t>{});
    if (sample) json_.field("kernel_insts", sample->kernel_insts).field("sample_insts", sample->sample_insts);
    if (sample && sample->check_sm) json_.field("check_sm", *sample->check_sm);
    if (sample && sample->sampling_error) json_.field("sampling_error_frac", *sample->sampling_error);
    json_.key("predicted_cycles_per_sm").array(k.predicted);
    json_.end_object();
  }

 private:
  void end_summary() override {
    json_.end_array().key("provenance");
    write_provenance(json_, provenance_);
    json_.end_object();
    summary() << "\n";
  }

  JsonWriter json_;
  std::vector<stream::Stage> provenance_;
};

}  // namespace

std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name, const stream::Header& upstream,
                                  stream::Stage self) {
  return std::make_unique<StreamSink>(out, name, upstream, std::move(self));
}

std::unique_ptr<Sink> json_sink(std::ostream& out, std::vector<stream::Stage> provenance) {
  return std::make_unique<JsonSink>(out, std::move(provenance));
}

}  // namespace sasskit::ctasample
