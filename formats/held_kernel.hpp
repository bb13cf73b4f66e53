// The one skeleton of a filter that writes records about a kernel ahead of
// the kernel's CTAs (cta-sample's sched and sample records, rd-cache's
// cache record), which it can only compute once every CTA was read. A
// kernel's records pass on to the sink as they come until its first cta
// record; from there on they are held, in order, in a spill file ($TMPDIR),
// so memory holds none of its CTAs. When the kernel's records end, the
// tool writes its own records (kernel_ends) and the held ones follow.
// Records about no kernel pass at once. A tool overrides the hooks it needs.
//
// A tool whose records about a kernel depend on later kernels (rd-cache:
// kernels that share SMs with it) keeps a kernel's records held past its
// end (releases_at_end). Every record read after them then waits behind
// them, each kernel's in a spill file of its own, until the tool releases
// them (release_held); its records for each released kernel go where that
// kernel's first cta record was held (results_due).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/kernel_stream.hpp"
#include "formats/sink.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::stream {

class HeldKernelFilter : public KernelHandler {
 public:
  ~HeldKernelFilter() override;
  void begin_member(const Header& header, size_t member) final;
  void end_member(size_t member) final;
  void begin_kernel(const Kernel& k, const Record& r) final;
  void insts(const Kernel& k, const InstTable& slice, const Record& r) final;
  void cta(const Kernel& k, const CtaRecord& cta) final;
  void attached(const Kernel& k, const Record& r) final;
  void end_kernel(const Kernel& k) final;
  void memcpy(const Record& r) final;
  void other(const Record& r) final;

 protected:
  // `always_holds`: records are held whatever the sink (a tool whose
  // results go out as held records are released: rd-cache); otherwise
  // nothing is held for a sink that keeps no records.
  HeldKernelFilter(RecordSink& sink, bool always_holds);

  // Each kernel layer event, before the record passes on or is held.
  virtual void member_begins(const Header&, size_t /*member*/) {}
  virtual void kernel_begins(const Kernel&, const Record&) {}
  virtual void insts_read(const Kernel&, const InstTable&) {}
  virtual void cta_read(const Kernel&, const CtaRecord&) {}
  // False: the record is dropped (the tool replaces it).
  virtual bool keeps_attached(const Kernel&, const Record&) { return true; }
  virtual void memcpy_read(const Record&) {}
  // The kernel's records are complete: write what goes ahead of its held
  // records to the sink (or, for a kernel kept held, in results_due).
  virtual void kernel_ends(const Kernel&) = 0;
  // The member's records are complete; everything still held is released
  // right after.
  virtual void member_ends(size_t /*member*/) {}
  // Whether the held record of the CTA at grid index `linear` follows
  // (cta-sample keeps the sampled SMs' CTAs only).
  virtual bool keeps_cta(uint64_t /*linear*/) const { return true; }

  // A tool that reads cta records in batches on threads (rd-cache) may
  // hold them itself, alongside: where holds_ctas_later() is true, cta()
  // holds nothing, and before every other event of the kernel layer
  // ctas_due() is called, by which time the tool has held, in order, each
  // cta record it was handed since the last call (hold_cta).
  virtual bool holds_ctas_later() const { return false; }
  virtual void ctas_due() {}
  // Holds a cta record handed to cta_read (holds_ctas_later), from any one
  // thread: nothing else of the filter's runs until the tool returns to it.
  void hold_cta(std::string_view bytes, uint64_t linear);

  // Whether the kernel's held records (and those of the kernels kept held
  // before it) go out at its end, right after kernel_ends (the default).
  virtual bool releases_at_end(const Kernel&) { return true; }
  // Writes out, in order, the records held for every kernel kept held, or
  // for all but the last one (`keep_last`, called from kernel_ends: the
  // kernel ending), with the records read between them. Where a kernel's
  // first cta record was held, results_due() writes the tool's records
  // about it first.
  void release_held(bool keep_last);
  virtual void results_due() {}

 private:
  // The records held for one kernel, from its first held record on.
  struct Held {
    std::unique_ptr<SpillFile> file;
    std::optional<size_t> first_cta;  // where in `file` its first cta record is
  };
  void pass_or_hold(const Record& r);
  Held& hold_kernel();
  void release(Held& held);

  RecordSink& sink_;
  bool holds_ = false;  // false when nothing needs the CTAs
  std::deque<Held> held_;  // oldest first; the last one takes the records read now
  bool kernel_open_held_ = false;  // the open kernel has its own entry in held_
  std::vector<std::unique_ptr<SpillFile>> spare_;  // files released, to reuse
};

}  // namespace sasskit::stream
