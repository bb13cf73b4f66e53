// --ctas A-B: only the thread blocks whose linear index (x + y*gx +
// z*gx*gy, launch order) lies in [A, B], in every kernel kept, so that one
// large kernel can be simulated as CTA-range shards (merged back by
// stall-report, stall-report(1) DESCRIPTION).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "formats/trace_source.hpp"

namespace sasskit::unpack {

struct CtaRange {
  uint64_t first = 0, last = 0;
  // "A-B" or "A"; a usage error otherwise or when B < A.
  static CtaRange parse(const std::string& text);
  std::string text() const;  // as --ctas takes it
  bool contains(uint64_t index) const { return index >= first && index <= last; }
};

// Passes everything to `next` except the CTAs outside the range. A stream
// already CTA-sampled (a sample record) is bad input: its sample would no
// longer describe the CTAs kept.
class CtaRangeFilter : public TraceHandler {
 public:
  CtaRangeFilter(TraceHandler& next, CtaRange range) : next_(next), range_(range) {}
  void memcpy(const Memcpy& m) override { next_.memcpy(m); }
  void kernel(const KernelInfo& k) override;
  void insts(const InstTable& t) override { next_.insts(t); }
  void cta(const CtaTrace& c) override {
    if (keeps(c)) next_.cta(c);
  }
  void take_cta(CtaTrace& c) override {
    if (keeps(c)) next_.take_cta(c);
  }
  void other(const stream::Record& r) override;
  // After the whole input: fails (ExitCode::Failure, where `input`) when
  // kernels were kept but the range holds none of their CTAs.
  void fail_if_none_kept(const std::string& input) const;

 private:
  // Counts `c`, and whether it is in the range.
  bool keeps(const CtaTrace& c);

  TraceHandler& next_;
  CtaRange range_;
  std::map<uint32_t, Dim3> grids_;  // kernel id -> grid
  uint64_t ctas_seen_ = 0, ctas_kept_ = 0;
};

}  // namespace sasskit::unpack
