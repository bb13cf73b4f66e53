#include "cta_sample.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "formats/kernel_placement.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/placement.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::ctasample {
namespace {

constexpr int64_t kNotCta = -1;  // spill tag of an insts record

// What cta-sample keeps of the kernel being read. Per-CTA counts are keyed
// by the CTAs that arrived, so a declared grid allocates nothing until its
// cta records back it (formats/SECURITY.md).
struct OpenKernel {
  uint32_t num_ctas = 0;
  unsigned ctas_per_sm = 0;
  std::vector<UnitClass> units;                     // per table entry
  std::unordered_map<uint32_t, UnitCounts> counts;  // per CTA (linear index) seen
};

// The per-CTA counts in grid order, once every CTA of the grid arrived.
std::vector<UnitCounts> counts_in_grid_order(OpenKernel& k) {
  std::vector<UnitCounts> all(k.num_ctas);
  for (auto& [index, counts] : k.counts) all[index] = counts;
  k.counts.clear();
  return all;
}

void write_summary(JsonWriter& json, const stream::Kernel& kernel, const OpenKernel& k,
                   const KernelSchedule& schedule, const std::vector<double>& predicted,
                   const std::optional<KernelSample>& sample) {
  json.begin_object();
  json.field("id", kernel.id()).field("name", kernel.info().name).field("policy", schedule.policy);
  json.field("ctas_per_sm", k.ctas_per_sm).field("ctas_total", k.num_ctas);
  json.field("ctas_kept", sample ? sample->ctas.size() : uint64_t(k.num_ctas));
  json.key("sampled_sm");
  if (sample && !sample->sms.empty())
    json.value(sample->sms.front());
  else
    json.null();
  json.key("sampled_sms").array(sample ? sample->sms : std::vector<uint32_t>{});
  if (sample) json.field("kernel_insts", sample->kernel_insts).field("sample_insts", sample->sample_insts);
  if (sample && sample->sampling_error) json.field("sampling_error", *sample->sampling_error);
  json.key("predicted_cycles_per_sm").array(predicted);
  json.end_object();
}

}  // namespace

struct CtaSampleStream::Impl : stream::KernelHandler {
  const GpuConfig& gpu;
  Options options;
  stream::Writer* writer;
  JsonWriter* json;
  NonStallModel model;
  Placement placement;
  std::unique_ptr<SpillFile> spill;
  OpenKernel open;
  bool warned_sched = false;

  Impl(const GpuConfig& g, const Options& o, stream::Writer* w, JsonWriter* j)
      : gpu(g), options(o), writer(w), json(j), model(g), placement(g, o.policy) {
    if (writer) spill = std::make_unique<SpillFile>();
  }

  void pass(const stream::Record& r) {
    if (writer) writer->write(r);
  }

  // Once a kernel's CTAs start, its records wait in the spill file (in
  // order) until the sched and sample records can go before them.
  void pass_or_spill(const stream::Kernel& k, const stream::Record& r) {
    if (k.ctas_seen() > 0 && writer)
      spill->append(r.bytes(), kNotCta);
    else
      pass(r);
  }

  void begin_member(const stream::Header& header, size_t member) override {
    if (member > 0 && writer) writer->next_member(header);
  }

  void begin_kernel(const stream::Kernel& k, const stream::Record& r) override {
    const uint64_t volume = k.info().grid.volume();
    if (volume > UINT32_MAX) fail_input(r.where(), k.label() + " has too many CTAs");
    open = OpenKernel{};
    open.num_ctas = static_cast<uint32_t>(volume);
    open.ctas_per_sm = resident_ctas(gpu, stream::kernel_to_place(k.info(), r.where()));
    pass(r);
  }

  void insts(const stream::Kernel& k, const InstTable& slice, const stream::Record& r) override {
    const OpcodeTable& opcodes = OpcodeTable::for_version(k.info().binary_version);
    for (const auto& inst : slice.insts) open.units.push_back(opcodes.classify(inst.opcode).unit);
    pass_or_spill(k, r);
  }

  void cta(const stream::Kernel& k, const stream::CtaRecord& c) override {
    const auto index = static_cast<uint32_t>(c.index());
    const CtaTrace trace = c.decode();
    const UnitCounts counts = count_units(trace.warps, [&](uint32_t i) { return open.units[i]; });
    if (!open.counts.emplace(index, counts).second)
      fail_input(c.record().where(), "CTA " + std::to_string(index) + " of " + k.label() + " appears twice");
    if (writer) spill->append(c.record().bytes(), index);
  }

  void attached(const stream::Kernel& k, const stream::Record& r) override {
    if (r.type() == "sample")
      fail_input(r.where(), "this stream was already sampled (it holds a sample record)");
    if (r.type() != "sched") return pass_or_spill(k, r);
    // A recorded schedule is the placement (emit() writes it again); only
    // a replayed log replaces it.
    if (!options.replay) return;
    if (!warned_sched) warn(r.where(), "replacing the input's sched records");
    warned_sched = true;
  }

  void memcpy(const stream::Record& r) override { pass(r); }
  void other(const stream::Record& r) override { pass(r); }

  // The replayed log, else the stream's sched record, else the modeled
  // schedule (libcommon/placement.hpp).
  KernelSchedule schedule(const stream::Kernel& k, const std::vector<UnitCounts>& counts) {
    const std::optional<KernelSchedule> recorded =
        options.replay ? options.replay->schedule(k.id(), open.num_ctas, gpu.num_sms) : k.find<KernelSchedule>();
    std::vector<uint64_t> cycles;
    if (!recorded)
      for (const UnitCounts& c : counts) cycles.push_back(predicted_cta_cycles(model, c));
    return placement.place(stream::kernel_to_place(k.info(), k.where()), recorded ? &*recorded : nullptr, cycles);
  }

  void emit(const KernelSchedule& sched, const std::optional<KernelSample>& sample) {
    writer->write(sched);
    if (sample) writer->write(*sample);
    std::vector<bool> kept(open.num_ctas, !sample);
    if (sample)
      for (uint32_t i : sample->ctas) kept[i] = true;
    spill->replay([&](const std::string& bytes, int64_t tag) {
      if (tag == kNotCta || kept[tag]) writer->write(stream::Record(bytes, "spilled record"));
    });
  }

  // The kernel's records are complete: schedule, sample, emit.
  void end_kernel(const stream::Kernel& k) override {
    if (k.ctas_seen() == 0) {
      warn(k.where(), k.label() + " has no cta records: nothing to schedule");
      return;
    }
    if (k.ctas_seen() != open.num_ctas) {
      uint32_t missing = 0;
      while (open.counts.count(missing)) ++missing;
      fail_input(k.where(), k.label() + ": its grid has " + std::to_string(open.num_ctas) +
                                " CTAs but the stream holds " + std::to_string(k.ctas_seen()) +
                                " cta records (first missing: CTA " + std::to_string(missing) + ")");
    }
    const std::vector<UnitCounts> counts = counts_in_grid_order(open);
    KernelSchedule sched = schedule(k, counts);
    sched.gpu = gpu.name;
    const auto predicted = predict_per_sm(model, sched, counts, gpu.num_sms);
    std::optional<KernelSample> sample;
    if (!options.sample.keep_all) {
      sample = choose_sample(sched, counts, predicted, options.sample);
      sample->gpu = gpu.name;
    }
    if (writer) emit(sched, sample);
    if (json) write_summary(*json, k, open, sched, predicted, sample);
  }
};

CtaSampleStream::CtaSampleStream(const GpuConfig& gpu, const Options& options,
                                 stream::Writer* writer, JsonWriter* json)
    : impl_(std::make_unique<Impl>(gpu, options, writer, json)) {}

CtaSampleStream::~CtaSampleStream() = default;

void CtaSampleStream::read(stream::Reader& reader) {
  reader.expect_gpu({impl_->gpu.name, impl_->options.accept_other_gpu});
  stream::read_kernels(reader, *impl_);
}

void check_options(const GpuConfig& gpu, const Options& options) {
  if (options.sample.force_sm && *options.sample.force_sm >= gpu.num_sms)
    fail_usage("--sm " + std::to_string(*options.sample.force_sm) + ": the GPU model " + gpu.name +
               " has " + std::to_string(gpu.num_sms) + " SMs (0-" + std::to_string(gpu.num_sms - 1) +
               ")");
  if (options.sample.top == 0) fail_usage("--top must be at least 1");
}

}  // namespace sasskit::ctasample
