// The accesses of a kernel's CTAs (CtaAccesses: the L1 lines of each
// memory instruction), extracted once as each CTA arrives and held in a
// spill file until the cache model runs the CTA: memory holds no CTA, and
// none is decoded or coalesced a second time. Varint-coded: a vecadd
// warp's three requests take about 29 bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "formats/archive_bytes.hpp"
#include "kernel_accesses.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::rdcache {

class AccessSpill {
 public:
  // Appends a CTA's accesses (all but `linear`); returns its index.
  size_t append(const CtaAccesses& cta) {
    encode(cta, bytes_);
    return append_encoded(bytes_);
  }
  // A CTA's accesses as append() stores them, into `bytes` (any thread).
  static void encode(const CtaAccesses& cta, std::string& bytes);
  // Appends a CTA encoded by encode(); returns its index.
  size_t append_encoded(std::string_view bytes) { return file_.append(bytes); }
  // Makes every appended CTA readable by load(); call before loading.
  void flush() { file_.flush(); }
  // Forgets every CTA, to be reused for another kernel.
  void clear() { file_.clear(); }
  // CTA `index` into `out` (its buffers reused), at `linear` in the grid.
  // Safe from several threads at once, once flushed. The SMs take their CTAs
  // in about the order they were appended: read through SpillFile::read_near.
  void load(size_t index, uint32_t linear, CtaAccesses& out) const;

 private:
  SpillFile file_;
  std::string bytes_;  // append's, reused
};

}  // namespace sasskit::rdcache
