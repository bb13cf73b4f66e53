#include "formats/count_checks.hpp"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "formats/cache_record.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/sample_record.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::stream {

bool CtaIndexSet::insert(uint64_t index) {
  if (index == UINT64_MAX) return !std::exchange(has_last_, true);  // no run can end past it
  auto next = runs_.upper_bound(index);  // the first run that starts after `index`
  if (next != runs_.begin()) {
    const auto before = std::prev(next);
    if (index < before->second) return false;
    if (index == before->second) {  // extends the run before, perhaps up to the next
      before->second = index + 1;
      if (next != runs_.end() && next->first == before->second) {
        before->second = next->second;
        runs_.erase(next);
      }
      return true;
    }
  }
  if (next != runs_.end() && next->first == index + 1) {  // extends the next run down
    const uint64_t end = next->second;
    runs_.erase(next);
    runs_.emplace(index, end);
    return true;
  }
  runs_.emplace_hint(next, index, index + 1);
  return true;
}

bool WarpIdSet::insert(uint32_t id) {
  if (id < 64) {
    const uint64_t bit = uint64_t{1} << id;
    if (below_64_ & bit) return false;
    below_64_ |= bit;
    return true;
  }
  return others_.insert(id).second;
}

void WarpIdSet::clear() {
  below_64_ = 0;
  if (!others_.empty()) others_.clear();
}

namespace {

void check_sample(const Kernel& k, const KernelSample& s, const Record& r) {
  const uint64_t grid = k.info().grid.volume();
  if (s.kernel_ctas != grid)
    fail_input(r.where(), "the sample's kernel_ctas is " + std::to_string(s.kernel_ctas) + ", but " + k.label() +
                              " has " + std::to_string(grid) + " CTAs");
  std::vector<uint32_t> kept = s.ctas;
  std::sort(kept.begin(), kept.end());
  if (!kept.empty() && kept.back() >= grid)
    fail_input(r.where(), "the sample keeps CTA " + std::to_string(kept.back()) + ", outside the " +
                              std::to_string(grid) + " CTAs of " + k.label());
  if (auto twice = std::adjacent_find(kept.begin(), kept.end()); twice != kept.end())
    fail_input(r.where(), "the sample keeps CTA " + std::to_string(*twice) + " twice");
}

// A cache record's CTAs: those of the grid, or with a sample either every
// CTA (rd-cache before cta-sample) or the kept ones (after).
void check_cache(const Kernel& k, const KernelCacheModel& c, const KernelSample* sample, const Record& r) {
  if (!c.ctas) return;  // a record before 2.6
  const uint64_t grid = k.info().grid.volume();
  if (*c.ctas > grid)
    fail_input(r.where(), "the cache record models " + std::to_string(*c.ctas) + " CTAs, but " + k.label() +
                              " has " + std::to_string(grid));
  if (*c.ctas == 0 && c.gmem_requests > 0)
    fail_input(r.where(), "the cache record models no CTA, but counts " + std::to_string(c.gmem_requests) +
                              " global memory requests");
  if (sample && *c.ctas != sample->kernel_ctas && *c.ctas != sample->ctas.size())
    fail_input(r.where(), "the cache record models " + std::to_string(*c.ctas) + " CTAs of " + k.label() +
                              ", but its sample keeps " + std::to_string(sample->ctas.size()) + " of " +
                              std::to_string(sample->kernel_ctas));
}

}  // namespace

void check_attached_counts(const Kernel& k, const Record& r) {
  const RecordType type = r.type();
  if (type == RecordCodec<KernelSample>::type) {
    const KernelSample sample = decode<KernelSample>(r);
    check_sample(k, sample, r);
    if (const auto cache = k.find<KernelCacheModel>()) check_cache(k, *cache, &sample, r);
  } else if (type == RecordCodec<KernelCacheModel>::type) {
    const auto sample = k.find<KernelSample>();
    check_cache(k, decode<KernelCacheModel>(r), sample ? &*sample : nullptr, r);
  }
}

}  // namespace sasskit::stream
