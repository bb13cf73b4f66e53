#include "formats/held_kernel.hpp"

namespace sasskit::stream {
namespace {

constexpr int64_t kNotCta = -1;  // the tag of a held record that is no cta record

}  // namespace

HeldKernelFilter::HeldKernelFilter(RecordSink& sink, bool reads_ctas_back)
    : sink_(sink) {
  if (reads_ctas_back || sink.keeps_records()) held_.emplace();
}

void HeldKernelFilter::begin_member(const Header& header, size_t member) {
  sink_.member(header, member);
  member_begins(header, member);
}

void HeldKernelFilter::begin_kernel(const Kernel& k, const Record& r) {
  kernel_begins(k, r);
  sink_.record(r);
}

void HeldKernelFilter::insts(const Kernel& k, const InstTable& slice, const Record& r) {
  insts_read(k, slice);
  pass_or_hold(r);
}

void HeldKernelFilter::cta(const Kernel& k, const CtaRecord& cta) {
  const size_t held = held_ ? held_->append(cta.record().bytes(), static_cast<int64_t>(cta.index())) : 0;
  cta_read(k, cta, held);
}

void HeldKernelFilter::attached(const Kernel& k, const Record& r) {
  if (keeps_attached(k, r)) pass_or_hold(r);
}

void HeldKernelFilter::end_kernel(const Kernel& k) {
  if (held_) held_->flush();
  kernel_ends(k);
  if (!held_) return;
  held_->replay([&](const std::string& bytes, int64_t tag) {
    if (tag == kNotCta || keeps_cta(static_cast<uint64_t>(tag))) sink_.record(Record(bytes, "spilled record"));
  });
}

void HeldKernelFilter::memcpy(const Record& r) {
  memcpy_read(r);
  sink_.record(r);
}

void HeldKernelFilter::other(const Record& r) { sink_.record(r); }

// From the kernel's first held cta record on, its records wait behind it.
void HeldKernelFilter::pass_or_hold(const Record& r) {
  if (held_ && held_->size() > 0)
    held_->append(r.bytes(), kNotCta);
  else
    sink_.record(r);
}

}  // namespace sasskit::stream
