#include "workload.hpp"

#include <limits>

#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::pipesim {

WorkloadReader::WorkloadReader(stream::Reader& reader, size_t batch_bytes, CtaIntake intake, ClassifierFor classify)
    : reader_(reader), batch_bytes_(batch_bytes), intake_(intake), classify_(std::move(classify)) {
  start_batch();
}

void WorkloadReader::start_batch() {
  open_ = Workload{};
  open_bytes_ = 0;
  if (intake_ == CtaIntake::Spill) open_.spill = std::make_unique<SpillFile>();
}

bool WorkloadReader::next(Workload& batch) {
  batch = Workload{};
  if (held_) {
    add(std::move(*held_));
    held_.reset();
  }
  stream::Record r;
  while (!ended_) {
    if (!reader_.next(r)) {
      ended_ = true;
      break;
    }
    // A kernel record completes the kernels before it: hand them out when
    // they are enough, and start the next batch with this record.
    if (r.type() == "kernel" && !open_.kernels.empty() && open_bytes_ >= batch_bytes_) {
      held_ = std::move(r);
      break;
    }
    add(std::move(r));
  }
  if (ended_ && seen_.empty()) fail_input(reader_.name(), "the stream holds no kernel records: nothing to simulate");
  if (open_.records.empty()) return false;
  if (open_.spill) open_.spill->flush();
  batch = std::move(open_);
  start_batch();
  return true;
}

// Records about a kernel come before the next kernel's record.
KernelInput& WorkloadReader::open_kernel(uint32_t id, const stream::Record& r) {
  if (!open_.kernels.empty() && open_.kernels.back().info.id == id) return open_.kernels.back();
  if (seen_.count(id))
    fail_input(r.where(), "a " + r.type() + " record for kernel " + std::to_string(id) +
                              " after a later kernel's record: pipe-sim simulates a kernel once the next one "
                              "starts (formats/STREAM.md, Order)");
  fail_input(r.where(), "a " + r.type() + " record for kernel " + std::to_string(id) +
                            " before that kernel's kernel record");
}

// A record a tool added about the open kernel (cache, sample, sched).
template <class T>
void WorkloadReader::attach(const stream::Record& r, size_t at, std::optional<T> KernelInput::*field) {
  T value = stream::decode<T>(r);
  KernelInput& k = open_kernel(value.kernel_id, r);
  k.*field = std::move(value);
  k.last_record = at;
}

void WorkloadReader::add_insts(const stream::Record& r, size_t at) {
  InstTable t = stream::decode<InstTable>(r);
  KernelInput& k = open_kernel(t.kernel_id, r);
  if (t.first != k.table.size())
    fail_input(r.where(), "insts slice starts at " + std::to_string(t.first) + ", expected " +
                              std::to_string(k.table.size()));
  Classifier classify = classify_(k.info.binary_version);
  for (const StaticInst& s : t.insts) units_.push_back(pipeline_unit(s, classify(s.opcode)));
  k.table.insert(k.table.end(), t.insts.begin(), t.insts.end());
  k.last_record = at;
}

// A spilled CTA joins the run of spilled records before it, if any.
void WorkloadReader::add_cta(stream::Record&& r, size_t at) {
  CtaTrace c = stream::decode<CtaTrace>(r);
  KernelInput& k = open_kernel(c.kernel_id, r);
  stream::validate_cta(c, k.table, r.where());
  if (c.warps.empty()) fail_input(r.where(), "thread block has no warps (a launched block has at least one)");
  open_bytes_ += r.bytes().size();
  if (!open_.spill) {
    k.ctas.push_back(std::move(c));
    k.last_record = at;
    open_.records.push_back(Passed{std::move(r)});
    return;
  }
  UnitCounts units = count_units(c.warps, [&](uint32_t i) { return units_[i]; });
  size_t record = open_.spill->append(r.bytes());
  k.spilled.push_back(SpilledCta{c.cta, record, total(units), units});
  Passed* run = open_.records.empty() ? nullptr : &open_.records.back();
  if (run && run->spilled_end == record && run->spilled_end > run->spilled_begin) {
    run->spilled_end = record + 1;
  } else {
    open_.records.push_back(Passed{{}, record, record + 1});
  }
  k.last_record = open_.records.size() - 1;
}

void WorkloadReader::add(stream::Record&& r) {
  size_t at = open_.records.size();
  const std::string& type = r.type();
  if (type == "cta") return add_cta(std::move(r), at);
  if (type == "kernel") {
    KernelInfo k = stream::decode<KernelInfo>(r);
    if (!seen_.insert(k.id).second) fail_input(r.where(), "kernel " + std::to_string(k.id) + " appears twice");
    open_.kernels.push_back(KernelInput{k, {}, {}, {}, {}, {}, {}, at});
    units_.clear();
  } else if (type == "insts") {
    add_insts(r, at);
  } else if (type == "cache") {
    attach(r, at, &KernelInput::cache);
  } else if (type == "sample") {
    attach(r, at, &KernelInput::sample);
  } else if (type == "sched") {
    attach(r, at, &KernelInput::sched);
  }
  open_.records.push_back(Passed{std::move(r)});
}

Workload read_workload(stream::Reader& reader) {
  WorkloadReader all(reader, std::numeric_limits<size_t>::max(), CtaIntake::Hold);
  Workload w;
  all.next(w);
  return w;
}

}  // namespace sasskit::pipesim
