// The stream layer's rule on counts (formats/SECURITY.md, "Counts agree"):
// every count a record declares is checked against the counts it must agree
// with (the CTAs of its kernel, the sum of its parts, ids unique per
// kernel), and a record that contradicts another is bad input. The checks a
// record can make alone are in its codec; these are the ones that need
// what came before it.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_set>

namespace sasskit::stream {

class Kernel;
class Record;

// The linear indices of the CTAs of one kernel read so far, to refuse one
// read twice. Kept as runs of consecutive indices: a kernel in launch order
// takes one run, any other order at most one per CTA.
class CtaIndexSet {
 public:
  // False when `index` was inserted before.
  bool insert(uint64_t index);

 private:
  std::map<uint64_t, uint64_t> runs_;  // first index -> one past the last
  bool has_last_ = false;              // UINT64_MAX, which ends no run
};

// The warp numbers of one CTA read so far, to refuse a number read twice.
class WarpIdSet {
 public:
  // False when `id` was inserted since the last clear().
  bool insert(uint32_t id);
  void clear();

 private:
  uint64_t below_64_ = 0;                 // a CTA has at most 32 warps: bits, mostly
  std::unordered_set<uint32_t> others_;  // hostile or unusual numbers
};

// Checks a cache or sample record about to be attached to `kernel` against
// the kernel's grid and the records attached to it before: a sample's
// kernel_ctas is the grid's CTAs and its kept CTAs are distinct CTAs of the
// grid; a cache record models at most the grid's CTAs, and with a sample
// either all of them or the kept ones. BadInput at the record otherwise.
// Records of other types pass.
void check_attached_counts(const Kernel& kernel, const Record& r);

}  // namespace sasskit::stream
