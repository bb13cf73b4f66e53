// The kernel-level view of a stream (formats/STREAM.md): every tool reads
// kernels through this layer instead of assembling them on its own. A
// Kernel holds the launch info, the instruction table so far and the
// records other tools attached to it (kept raw, decoded on demand). CTAs
// reach the handler one at a time as they arrive and are never collected;
// memcpy and other records pass in order. Records are decoded lazily: a
// handler that passes a record on never builds a msgpack object for it.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/count_checks.hpp"
#include "formats/records.hpp"
#include "formats/stream.hpp"

namespace sasskit::stream {

// The CTA grid index: x + y·gx + z·gx·gy. BadInput at `where` when `cta`
// lies outside `grid`; `kernel` names the kernel in that message.
uint64_t cta_linear_index(const Dim3& cta, const Dim3& grid, const std::string& kernel,
                          const std::string& where);

// BadInput at `where` unless `slice` starts where a table of `table_size`
// entries ends (STREAM.md, insts: slices are cumulative and contiguous).
void check_slice_continues(const InstTable& slice, size_t table_size, const std::string& where);

// "kernel 3 (name)" for messages.
std::string kernel_label(const KernelInfo& k);

class Kernel {
 public:
  Kernel(KernelInfo info, std::string where) : info_(std::move(info)), where_(std::move(where)) {}
  const KernelInfo& info() const { return info_; }
  uint32_t id() const { return info_.id; }
  // Where its kernel record was read, for messages.
  const std::string& where() const { return where_; }
  std::string label() const { return kernel_label(info_); }
  // The instruction table announced so far.
  const std::vector<StaticInst>& table() const { return table_; }
  // The records tools attached to the kernel (sched, sample, cache, stats
  // and unknown types naming it), raw and in the order read.
  const std::vector<Record>& attached() const { return attached_; }
  // The last attached record of T's type, decoded; nullopt when none.
  template <class T>
  std::optional<T> find() const;
  // cta records seen so far.
  uint64_t ctas_seen() const { return ctas_seen_; }
  // The linear index of `cta` in this kernel's grid (BadInput if outside).
  uint64_t linear_index(const Dim3& cta, const std::string& where) const;

 private:
  friend class KernelAssembler;
  KernelInfo info_;
  std::string where_;
  std::vector<StaticInst> table_;
  std::vector<Record> attached_;
  uint64_t ctas_seen_ = 0;
  CtaIndexSet cta_indices_;
};

template <class T>
std::optional<T> Kernel::find() const {
  for (auto it = attached_.rbegin(); it != attached_.rend(); ++it)
    if (it->type() == RecordCodec<T>::type) return decode<T>(*it);
  return std::nullopt;
}

// One cta record as it arrives: its bytes, its place in the grid (checked
// by the layer), and its trace decoded only when asked.
class CtaRecord {
 public:
  CtaRecord(const Record& record, const Kernel& kernel, Dim3 cta, uint64_t index)
      : record_(record), kernel_(kernel), cta_(cta), index_(index) {}
  const Record& record() const { return record_; }
  const Dim3& cta() const { return cta_; }
  // Linear index in the kernel's grid, within bounds.
  uint64_t index() const { return index_; }
  // The trace, decoded and checked against the kernel's table (validate_cta).
  CtaTrace decode() const;
  // The same into `c`, reusing its capacity (RecordCodec<CtaTrace>::unpack).
  void decode(CtaTrace& c) const;

 private:
  const Record& record_;
  const Kernel& kernel_;
  Dim3 cta_;
  uint64_t index_;
};

// Receives a stream kernel by kernel, every record in input order. Every
// method has an empty default.
class KernelHandler {
 public:
  virtual ~KernelHandler() = default;
  // A member of the (possibly concatenated) stream starts: 0, 1, ...
  virtual void begin_member(const Header&, size_t /*member*/) {}
  // The member's end record was read and checked.
  virtual void end_member(size_t /*member*/) {}
  virtual void begin_kernel(const Kernel&, const Record&) {}
  // A slice, already appended to the kernel's table.
  virtual void insts(const Kernel&, const InstTable&, const Record&) {}
  virtual void cta(const Kernel&, const CtaRecord&) {}
  // A record a tool attached to the kernel, already in Kernel::attached().
  virtual void attached(const Kernel&, const Record&) {}
  // No more records about the kernel follow: the next kernel, a record
  // about no kernel, or the member's end came.
  virtual void end_kernel(const Kernel&) {}
  virtual void memcpy(const Record&) {}
  // A record about no kernel (plan, or a type this layer does not know).
  virtual void other(const Record&) {}
};

// Reads every member of `reader`'s stream to its end, handing each record
// to `handler` in order. BadInput for a record about a kernel that is not
// the open one (before its kernel record, or after a later kernel's), a
// kernel id twice in a member, a slice that does not continue the table,
// a CTA outside its grid or twice in it, and an attached record whose
// counts contradict the kernel's or another record's (check_attached_counts).
// When the reader expects a GPU model (Reader::expect_gpu), also for a
// record attached to a kernel that names another model (format 2.1 on),
// and for a provenance stage that computed
// for another model (check_gpu_model: by values when both fingerprints
// are known, 2.3 on; by name in a member before 2.1, whose records name
// none).
void read_kernels(Reader& reader, KernelHandler& handler);

}  // namespace sasskit::stream
