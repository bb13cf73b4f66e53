#include "cta_sample.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/opcodes.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::ctasample {
namespace {

constexpr int64_t kNotCta = -1;  // spill tag of an insts record

// The kernel whose records are being read.
struct OpenKernel {
  KernelInfo info;
  std::string where;  // of its kernel record
  uint32_t num_ctas = 0;
  unsigned ctas_per_sm = 0;
  std::vector<StaticInst> table;
  std::vector<UnitClass> units;    // per table entry
  std::vector<UnitCounts> counts;  // per CTA (linear index)
  std::vector<bool> seen;
  uint32_t ctas_seen = 0;
};

std::string kernel_label(const KernelInfo& k) {
  return "kernel " + std::to_string(k.id) + " (" + k.name + ")";
}

unsigned ctas_per_sm_or_fail(const GpuConfig& gpu, const KernelInfo& k, const std::string& where) {
  const CtaResources cta{static_cast<unsigned>(k.block.volume()), k.nregs, k.shmem};
  const Occupancy occ = occupancy(gpu, cta);
  if (occ.ctas_per_sm == 0)
    throw Error(ExitCode::Failure, where,
                kernel_label(k) + " cannot run on " + gpu.name + ": one CTA (" +
                    std::to_string(cta.threads) + " threads, " + std::to_string(cta.regs_per_thread) +
                    " registers per thread, " + std::to_string(cta.smem_bytes) +
                    " bytes of shared memory) exceeds what an SM offers in " + occ.limiter);
  return occ.ctas_per_sm;
}

uint32_t linear_cta(const CtaTrace& c, const KernelInfo& k, const std::string& where) {
  const Dim3& g = k.grid;
  if (c.cta.x >= g.x || c.cta.y >= g.y || c.cta.z >= g.z)
    fail_input(where, "CTA (" + std::to_string(c.cta.x) + "," + std::to_string(c.cta.y) + "," +
                          std::to_string(c.cta.z) + ") is outside the grid of " + kernel_label(k));
  return c.cta.x + g.x * (c.cta.y + g.y * c.cta.z);
}

void write_summary(JsonWriter& json, const OpenKernel& k, const KernelSchedule& schedule,
                   const std::vector<double>& predicted, const std::optional<KernelSample>& sample) {
  json.begin_object();
  json.field("id", k.info.id).field("name", k.info.name).field("policy", schedule.policy);
  json.field("ctas_per_sm", k.ctas_per_sm).field("ctas_total", k.num_ctas);
  json.field("ctas_kept", sample ? sample->ctas.size() : uint64_t(k.num_ctas));
  json.key("sampled_sm");
  if (sample && !sample->sms.empty())
    json.value(sample->sms.front());
  else
    json.null();
  json.key("sampled_sms").array(sample ? sample->sms : std::vector<uint32_t>{});
  if (sample) json.field("kernel_insts", sample->kernel_insts).field("sample_insts", sample->sample_insts);
  json.key("predicted_cycles_per_sm").array(predicted);
  json.end_object();
}

}  // namespace

struct CtaSampleStream::Impl {
  const GpuConfig& gpu;
  Options options;
  stream::Writer* writer;
  JsonWriter* json;
  NonStallModel model;
  CtaScheduler scheduler;
  std::unique_ptr<SpillFile> spill;
  std::optional<OpenKernel> open;
  bool warned_sched = false;

  Impl(const GpuConfig& g, const Options& o, stream::Writer* w, JsonWriter* j)
      : gpu(g), options(o), writer(w), json(j), model(g), scheduler(g.num_sms) {
    if (writer) spill = std::make_unique<SpillFile>();
  }

  void pass(const stream::Record& r) {
    if (writer) writer->write(r);
  }

  void open_kernel(const stream::Record& r) {
    OpenKernel k;
    k.info = stream::decode<KernelInfo>(r);
    k.where = r.where();
    const uint64_t volume = k.info.grid.volume();
    if (volume > UINT32_MAX) fail_input(r.where(), kernel_label(k.info) + " has too many CTAs");
    k.num_ctas = static_cast<uint32_t>(volume);
    k.ctas_per_sm = ctas_per_sm_or_fail(gpu, k.info, r.where());
    k.counts.resize(k.num_ctas);
    k.seen.resize(k.num_ctas);
    open = std::move(k);
  }

  void add_insts(const stream::Record& r) {
    InstTable t = stream::decode<InstTable>(r);
    if (!open || t.kernel_id != open->info.id) return pass_other(r);
    if (t.first != open->table.size())
      fail_input(r.where(), "insts slice starts at entry " + std::to_string(t.first) +
                                ", expected " + std::to_string(open->table.size()));
    const OpcodeTable& opcodes = OpcodeTable::for_version(open->info.binary_version);
    for (auto& inst : t.insts) {
      open->units.push_back(opcodes.classify(inst.opcode).unit);
      open->table.push_back(std::move(inst));
    }
    if (open->ctas_seen > 0 && writer)
      spill->append(r.bytes(), kNotCta);
    else
      pass(r);
  }

  void add_cta(const stream::Record& r) {
    CtaTrace c = stream::decode<CtaTrace>(r);
    if (!open || c.kernel_id != open->info.id)
      fail_input(r.where(), "cta record of kernel " + std::to_string(c.kernel_id) +
                                " is not among its kernel's records");
    const uint32_t index = linear_cta(c, open->info, r.where());
    if (open->seen[index])
      fail_input(r.where(), "CTA " + std::to_string(index) + " of " + kernel_label(open->info) +
                                " appears twice");
    stream::validate_cta(c, open->table, r.where());
    open->seen[index] = true;
    ++open->ctas_seen;
    open->counts[index] = count_units(c.warps, [&](uint32_t i) { return open->units[i]; });
    if (writer) spill->append(r.bytes(), index);
  }

  KernelSchedule schedule(const OpenKernel& k) {
    if (options.replay) return options.replay->schedule(k.info.id, k.num_ctas, gpu.num_sms);
    std::vector<uint64_t> cycles(k.num_ctas);
    for (uint32_t i = 0; i < k.num_ctas; ++i)
      cycles[i] = static_cast<uint64_t>(std::ceil(model.cycles(k.counts[i])));
    return scheduler.schedule(KernelLaunch{k.info.id, k.info.stream_id, k.num_ctas, k.ctas_per_sm, cycles},
                              options.policy);
  }

  void emit(const OpenKernel& k, const KernelSchedule& sched, const std::optional<KernelSample>& sample) {
    writer->write(sched);
    if (sample) writer->write(*sample);
    std::vector<bool> kept(k.num_ctas, !sample);
    if (sample)
      for (uint32_t i : sample->ctas) kept[i] = true;
    spill->replay([&](const std::string& bytes, int64_t tag) {
      if (tag == kNotCta || kept[tag]) writer->write(stream::Record(bytes, "spilled record"));
    });
  }

  // The kernel's records are complete: schedule, sample, emit.
  void close() {
    if (!open) return;
    OpenKernel k = std::move(*open);
    open.reset();
    if (k.ctas_seen == 0) {
      warn(k.where, kernel_label(k.info) + " has no cta records: nothing to schedule");
      return;
    }
    if (k.ctas_seen != k.num_ctas) {
      const auto missing = std::find(k.seen.begin(), k.seen.end(), false) - k.seen.begin();
      fail_input(k.where, kernel_label(k.info) + ": its grid has " + std::to_string(k.num_ctas) +
                              " CTAs but the stream holds " + std::to_string(k.ctas_seen) +
                              " cta records (first missing: CTA " + std::to_string(missing) + ")");
    }
    const KernelSchedule sched = schedule(k);
    const auto predicted = predict_per_sm(model, sched, k.counts, gpu.num_sms);
    std::optional<KernelSample> sample;
    if (!options.sample.keep_all) sample = choose_sample(sched, k.counts, predicted, options.sample);
    if (writer) emit(k, sched, sample);
    if (json) write_summary(*json, k, sched, predicted, sample);
  }

  void feed(const stream::Record& r) {
    const std::string& type = r.type();
    if (type == "kernel") {
      close();
      open_kernel(r);
      return pass(r);
    }
    if (type == "insts") return add_insts(r);
    if (type == "cta") return add_cta(r);
    if (type == "sample")
      fail_input(r.where(), "this stream was already sampled (it holds a sample record)");
    if (type == "sched") {
      if (!warned_sched) warn(r.where(), "replacing the input's sched records");
      warned_sched = true;
      return;
    }
    pass_other(r);
  }

  // A record about something else ends the open kernel's CTAs (tools'
  // records follow them), so it cannot overtake the spilled ones.
  void pass_other(const stream::Record& r) {
    if (open && open->ctas_seen > 0) close();
    pass(r);
  }
};

CtaSampleStream::CtaSampleStream(const GpuConfig& gpu, const Options& options,
                                 stream::Writer* writer, JsonWriter* json)
    : impl_(std::make_unique<Impl>(gpu, options, writer, json)) {}

CtaSampleStream::~CtaSampleStream() = default;

void CtaSampleStream::feed(const stream::Record& record) { impl_->feed(record); }

void CtaSampleStream::finish() { impl_->close(); }

void check_options(const GpuConfig& gpu, const Options& options) {
  if (options.sample.force_sm && *options.sample.force_sm >= gpu.num_sms)
    fail_usage("--sm " + std::to_string(*options.sample.force_sm) + ": the GPU model " + gpu.name +
               " has " + std::to_string(gpu.num_sms) + " SMs (0-" + std::to_string(gpu.num_sms - 1) +
               ")");
  if (options.sample.top == 0) fail_usage("--top must be at least 1");
}

}  // namespace sasskit::ctasample
