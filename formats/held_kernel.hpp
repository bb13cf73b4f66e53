// The one skeleton of a filter that writes records about a kernel ahead of
// the kernel's CTAs (cta-sample's sched and sample records, rd-cache's
// cache record), which it can only compute once every CTA was read. A
// kernel's records pass on to the sink as they come until its first cta
// record; from there on they are held, in order, in a spill file ($TMPDIR),
// so memory holds none of its CTAs. When the kernel's records end, the
// tool writes its own records (kernel_ends) and the held ones follow.
// Records about no kernel pass at once. A tool overrides the hooks it needs.
#pragma once

#include <optional>
#include <string>

#include "formats/kernel_stream.hpp"
#include "formats/sink.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::stream {

class HeldKernelFilter : public KernelHandler {
 public:
  void begin_member(const Header& header, size_t member) final;
  void begin_kernel(const Kernel& k, const Record& r) final;
  void insts(const Kernel& k, const InstTable& slice, const Record& r) final;
  void cta(const Kernel& k, const CtaRecord& cta) final;
  void attached(const Kernel& k, const Record& r) final;
  void end_kernel(const Kernel& k) final;
  void memcpy(const Record& r) final;
  void other(const Record& r) final;

  // A held CTA's record, from kernel_ends() on (any order, several threads).
  void read_held(size_t held, std::string& bytes) const { held_->read(held, bytes); }

 protected:
  // `reads_ctas_back`: the tool reads held CTAs back (read_held) whatever
  // the sink; otherwise nothing is held for a sink that keeps no records.
  HeldKernelFilter(RecordSink& sink, bool reads_ctas_back);

  // Each kernel layer event, before the record passes on or is held.
  virtual void member_begins(const Header&, size_t /*member*/) {}
  virtual void kernel_begins(const Kernel&, const Record&) {}
  virtual void insts_read(const Kernel&, const InstTable&) {}
  // `held`: where read_held finds its record.
  virtual void cta_read(const Kernel&, const CtaRecord&, size_t /*held*/) {}
  // False: the record is dropped (the tool replaces it).
  virtual bool keeps_attached(const Kernel&, const Record&) { return true; }
  virtual void memcpy_read(const Record&) {}
  // The kernel's records are complete: write what goes ahead of its held
  // records to the sink.
  virtual void kernel_ends(const Kernel&) = 0;
  // Whether the held record of the CTA at grid index `linear` follows
  // (cta-sample keeps the sampled SMs' CTAs only).
  virtual bool keeps_cta(uint64_t /*linear*/) const { return true; }

 private:
  void pass_or_hold(const Record& r);

  RecordSink& sink_;
  std::optional<SpillFile> held_;  // none when nothing needs the CTAs
};

}  // namespace sasskit::stream
