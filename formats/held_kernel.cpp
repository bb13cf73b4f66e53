#include "formats/held_kernel.hpp"

#include "libcommon/diag.hpp"

namespace sasskit::stream {
namespace {

constexpr int64_t kNotCta = -1;  // the tag of a held record that is no cta record

}  // namespace

HeldKernelFilter::HeldKernelFilter(RecordSink& sink, bool always_holds)
    : sink_(sink), holds_(always_holds || sink.keeps_records()) {}

HeldKernelFilter::~HeldKernelFilter() = default;

void HeldKernelFilter::begin_member(const Header& header, size_t member) {
  ctas_due();
  sink_.member(header, member);
  member_begins(header, member);
}

void HeldKernelFilter::end_member(size_t member) {
  ctas_due();
  member_ends(member);
  release_held(false);
}

void HeldKernelFilter::begin_kernel(const Kernel& k, const Record& r) {
  ctas_due();
  kernel_begins(k, r);
  kernel_open_held_ = false;
  if (!held_.empty()) hold_kernel();  // it waits behind the kernels kept held
  pass_or_hold(r);
}

void HeldKernelFilter::insts(const Kernel& k, const InstTable& slice, const Record& r) {
  ctas_due();
  insts_read(k, slice);
  pass_or_hold(r);
}

void HeldKernelFilter::cta(const Kernel& k, const CtaRecord& cta) {
  if (holds_) {
    Held& h = kernel_open_held_ ? held_.back() : hold_kernel();
    if (!h.first_cta) h.first_cta = h.file->size();
    if (!holds_ctas_later()) hold_cta(cta.record().bytes(), cta.index());
  }
  cta_read(k, cta);
}

// The open kernel's entry is the last one while its cta records come.
void HeldKernelFilter::hold_cta(std::string_view bytes, uint64_t linear) {
  held_.back().file->append(bytes, static_cast<int64_t>(linear));
}

void HeldKernelFilter::attached(const Kernel& k, const Record& r) {
  ctas_due();
  if (keeps_attached(k, r)) pass_or_hold(r);
}

void HeldKernelFilter::end_kernel(const Kernel& k) {
  ctas_due();
  if (kernel_open_held_) held_.back().file->flush();
  kernel_ends(k);
  kernel_open_held_ = false;
  if (releases_at_end(k)) release_held(false);
}

void HeldKernelFilter::memcpy(const Record& r) {
  ctas_due();
  memcpy_read(r);
  pass_or_hold(r);
}

void HeldKernelFilter::other(const Record& r) {
  ctas_due();
  pass_or_hold(r);
}

void HeldKernelFilter::release_held(bool keep_last) {
  const size_t keep = keep_last && kernel_open_held_ ? 1 : 0;
  while (held_.size() > keep) {
    release(held_.front());
    spare_.push_back(std::move(held_.front().file));
    held_.pop_front();
  }
}

// The open kernel's records are held from here on, in a file of its own.
HeldKernelFilter::Held& HeldKernelFilter::hold_kernel() {
  std::unique_ptr<SpillFile> file;
  if (spare_.empty()) {
    file = std::make_unique<SpillFile>();
  } else {
    file = std::move(spare_.back());
    spare_.pop_back();
  }
  held_.push_back(Held{std::move(file), std::nullopt});
  kernel_open_held_ = true;
  return held_.back();
}

void HeldKernelFilter::release(Held& held) {
  size_t i = 0;
  Record cta;  // each held cta record in turn: its type was read when it was held
  held.file->replay([&](std::string_view bytes, int64_t tag) {
    if (held.first_cta == i++) results_due();
    if (tag == kNotCta) return sink_.record(Record(std::string(bytes), "spilled record"));
    if (!keeps_cta(static_cast<uint64_t>(tag))) return;
    cta.refill(bytes, "spilled record", RecordType::Cta, record_type_name(RecordType::Cta));
    sink_.record(cta);
  });
}

// From the kernel's first held cta record on, its records wait behind it,
// and so does every record after a kernel kept held.
void HeldKernelFilter::pass_or_hold(const Record& r) {
  if (held_.empty()) return sink_.record(r);
  held_.back().file->append(r.bytes(), kNotCta);
}

}  // namespace sasskit::stream
