#include "cta_range.hpp"

#include <charconv>

#include "libcommon/diag.hpp"

namespace sasskit::unpack {

namespace {

uint64_t number(const std::string& text, const std::string& whole) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    fail_usage("--ctas " + whole + ": expected A-B or A, CTA linear indices (0 is the first)");
  return v;
}

}  // namespace

CtaRange CtaRange::parse(const std::string& text) {
  const size_t dash = text.find('-');
  CtaRange r;
  r.first = number(text.substr(0, dash), text);
  r.last = dash == std::string::npos ? r.first : number(text.substr(dash + 1), text);
  if (r.last < r.first) fail_usage("--ctas " + text + ": the range ends before it starts");
  return r;
}

std::string CtaRange::text() const {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

void CtaRangeFilter::kernel(const KernelInfo& k) {
  grids_[k.id] = k.grid;
  next_.kernel(k);
}

bool CtaRangeFilter::keeps(const CtaTrace& c) {
  auto grid = grids_.find(c.kernel_id);
  if (grid == grids_.end())
    fail_input("--ctas", "a CTA of kernel " + std::to_string(c.kernel_id) + " before its kernel record");
  const Dim3& g = grid->second;
  const uint64_t index = c.cta.x + uint64_t(c.cta.y) * g.x + uint64_t(c.cta.z) * g.x * g.y;
  ++ctas_seen_;
  if (!range_.contains(index)) return false;
  ++ctas_kept_;
  return true;
}

void CtaRangeFilter::fail_if_none_kept(const std::string& input) const {
  if (grids_.empty() || ctas_kept_ > 0) return;
  const size_t kernels = grids_.size();
  throw Error(ExitCode::Failure, input,
              "no CTA kept: --ctas " + range_.text() + " keeps 0 of the " + std::to_string(ctas_seen_) + " CTAs of its " +
                  std::to_string(kernels) + (kernels == 1 ? " kernel" : " kernels") + " kept");
}

void CtaRangeFilter::other(const stream::Record& r) {
  if (r.type() == stream::RecordType::Sample)
    fail_input("--ctas", "the stream is CTA-sampled already (a sample record); cut CTA ranges before cta-sample");
  next_.other(r);
}

}  // namespace sasskit::unpack
