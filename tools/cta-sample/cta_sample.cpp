#include "cta_sample.hpp"

#include <algorithm>
#include <optional>

#include "formats/cta_payload.hpp"
#include "formats/held_kernel.hpp"
#include "formats/kernel_placement.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/placement.hpp"

namespace sasskit::ctasample {
namespace {

// What cta-sample keeps of the kernel being read.
struct OpenKernel {
  uint32_t num_ctas = 0;
  unsigned ctas_per_sm = 0;
  std::vector<UnitClass> units;  // per table entry
  CtaUnitCounts counts;          // per CTA (linear index) seen
};

}  // namespace

struct CtaSampleStream::Impl : stream::HeldKernelFilter {
  const GpuConfig& gpu;
  Options options;
  Sink& sink;
  NonStallModel model;
  std::optional<Placement> placement;  // per member
  OpenKernel open;
  std::vector<bool> kept;  // per CTA of the open kernel, once sampled
  CtaTrace decoded;        // the CTA read last, its capacity reused
  bool warned_sched = false;

  Impl(const GpuConfig& g, const Options& o, Sink& s)
      : HeldKernelFilter(s, false), gpu(g), options(o), sink(s), model(g) {}

  // Each member is a stream of its own: its kernels are placed on an idle
  // GPU, as rd-cache and pipe-sim do.
  void member_begins(const stream::Header&, size_t) override {
    placement.emplace(gpu, options.policy, options.serial_kernels);
  }

  void kernel_begins(const stream::Kernel& k, const stream::Record& r) override {
    const uint64_t volume = k.info().grid.volume();
    if (volume > UINT32_MAX) fail_input(r.where(), k.label() + " has too many CTAs");
    open = OpenKernel{};
    open.num_ctas = static_cast<uint32_t>(volume);
    open.ctas_per_sm = resident_ctas(gpu, stream::kernel_to_place(k.info(), r.where()));
  }

  void insts_read(const stream::Kernel& k, const InstTable& slice) override {
    const OpcodeTable& opcodes = OpcodeTable::for_version(k.info().binary_version);
    for (const auto& inst : slice.insts)
      open.units.push_back(stream::pipeline_unit(inst, opcodes.classify(inst.opcode)));
  }

  void cta_read(const stream::Kernel& k, const stream::CtaRecord& c) override {
    const auto index = static_cast<uint32_t>(c.index());
    if (!open.counts.add(index, counted_units(k, c)))
      fail_input(c.record().where(), "CTA " + std::to_string(index) + " of " + k.label() + " appears twice");
  }

  // Read through a compact payload without its addresses; a CTA in full
  // form, or one that disagrees with the table, is decoded and checked.
  UnitCounts counted_units(const stream::Kernel& k, const stream::CtaRecord& c) {
    UnitCounts counts{};
    const auto payload = stream::cta_payload(c.record());
    if (payload && stream::count_payload_units(*payload, c.record().where(), k.table(), open.units, counts))
      return counts;
    c.decode(decoded);
    return count_units(decoded.warps, [&](uint32_t i) { return open.units[i]; });
  }

  bool keeps_attached(const stream::Kernel&, const stream::Record& r) override {
    if (r.type() == stream::RecordType::Sample)
      fail_input(r.where(), "this stream was already sampled (it holds a sample record)");
    if (r.type() != stream::RecordType::Sched) return true;
    // A recorded schedule is the placement (the sink writes it again); only
    // a replayed log replaces it.
    if (!options.replay) return false;
    if (!warned_sched) warn(r.where(), "replacing the input's sched records");
    warned_sched = true;
    return false;
  }

  bool keeps_cta(uint64_t linear) const override { return kept[linear]; }

  // The replayed log, else the stream's sched record, else the modeled
  // schedule (libcommon/placement.hpp).
  KernelSchedule schedule(const stream::Kernel& k) {
    const std::optional<KernelSchedule> recorded =
        options.replay ? options.replay->schedule(k.id(), open.num_ctas, gpu.num_sms) : k.find<KernelSchedule>();
    std::vector<uint64_t> cycles;
    if (!recorded) {
      const std::vector<uint64_t> by_id = predicted_cycles_by_id(model, open.counts.table());
      cycles.reserve(open.num_ctas);  // every CTA of the grid arrived
      for (uint32_t i = 0; i < open.num_ctas; ++i) cycles.push_back(by_id[open.counts.id(i)]);
    }
    return placement->place(stream::kernel_to_place(k.info(), k.where()), recorded ? &*recorded : nullptr, cycles);
  }

  // The kernel's records are complete: place, sample, hand to the sink.
  void kernel_ends(const stream::Kernel& k) override {
    if (k.ctas_seen() == 0) {
      warn(k.where(), k.label() + " has no cta records: nothing to schedule");
      return;
    }
    if (k.ctas_seen() != open.num_ctas) {
      uint32_t missing = 0;
      while (open.counts.contains(missing)) ++missing;
      fail_input(k.where(), k.label() + ": its grid has " + std::to_string(open.num_ctas) +
                                " CTAs but the stream holds " + std::to_string(k.ctas_seen()) +
                                " cta records (first missing: CTA " + std::to_string(missing) + ")");
    }
    const CtaUnitCounts& counts = open.counts;
    KernelSchedule sched = schedule(k);
    sched.gpu = gpu.name;
    const auto predicted = predict_per_sm(model, sched, counts, gpu.num_sms);
    std::optional<KernelSample> sample;
    if (!options.sample.keep_all) {
      sample = choose_sample(sched, counts, predicted, options.sample, open.ctas_per_sm);
      sample->gpu = gpu.name;
    }
    kept.assign(open.num_ctas, !sample);
    if (sample)
      for (uint32_t i : sample->ctas) kept[i] = true;
    sink.result(SampledKernel{k, open.ctas_per_sm, open.num_ctas, sched, predicted, sample});
  }
};


CtaSampleStream::CtaSampleStream(const GpuConfig& gpu, const Options& options, Sink& sink)
    : impl_(std::make_unique<Impl>(gpu, options, sink)) {}

CtaSampleStream::~CtaSampleStream() = default;

void CtaSampleStream::read(stream::Reader& reader) {
  reader.expect_gpu({impl_->gpu.name, impl_->options.accept_other_gpu, impl_->options.gpu_fingerprint});
  stream::read_kernels(reader, *impl_);
  impl_->sink.finish();
}

void check_options(const GpuConfig& gpu, const Options& options) {
  if (options.sample.force_sm && *options.sample.force_sm >= gpu.num_sms)
    fail_usage("--sm " + std::to_string(*options.sample.force_sm) + ": the GPU model " + gpu.name +
               " has " + std::to_string(gpu.num_sms) + " SMs (0-" + std::to_string(gpu.num_sms - 1) +
               ")");
  if (options.sample.top == 0) fail_usage("--top must be at least 1");
}

}  // namespace sasskit::ctasample
