// One cache level: the modeled cache's tags, which decide hit or miss and
// what an eviction writes back, and one stack per set count the sweep asks
// for, which only fill distance histograms.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libcommon/gpu_config.hpp"
#include "cache_tags.hpp"
#include "requests.hpp"
#include "reuse_distance.hpp"
#include "sliced_tags.hpp"

namespace sasskit::rdcache {

enum class Level : uint8_t { L1, L2 };
const char* level_name(Level level);  // "l1", "l2"

// One cache of a --sweep: its size and ways (0 = fully associative); line
// and sector sizes are the level's.
struct SweepPoint {
  Level level = Level::L1;
  uint64_t size_bytes = 0;
  unsigned assoc = 0;
};

struct SweepResult {
  SweepPoint point;
  uint64_t sets = 0;
  uint64_t accesses = 0;  // sectors
  uint64_t hits = 0;
};

// Sets and ways of a `size_bytes` cache with `assoc` ways and lines of
// `line_bytes`; a usage error naming `what` unless it divides into >= 1 set.
struct SetsWays {
  uint64_t sets = 1;
  uint64_t ways = 0;
};
SetsWays sets_ways(uint64_t size_bytes, unsigned assoc, unsigned line_bytes, const std::string& what);

class LevelStacks {
 public:
  // The modeled cache's tags in `slices` slices (SlicedTags): what a lookup
  // finds does not depend on their number.
  LevelStacks(Level level, const CacheGeometry& model, const std::vector<SweepPoint>& sweep, unsigned slices = 1);

  // Looks up one line in the modeled cache: the hit sectors of `a.mask`,
  // and the dirty sectors written back by the eviction it causes (a
  // write-back level; a write-through one holds no dirty sector). `write`:
  // the access writes its sectors. `measured` false (cache warming) leaves
  // the histograms alone.
  // Inline: most runs sweep nothing, and this runs for every line looked up.
  TagOutcome access(const LineAccess& a, bool write, bool measured = true) {
    if (!stacks_.empty()) access_stacks(a, measured);
    return access_tags(tags_.place(a.line), a.mask, write);
  }

  // The two halves of access(), for a pass that looks lines up a thread per
  // slice of the tags and another for the sweep's stacks (which see every
  // line, in order). Threads may look up lines of different slices at once.
  const SlicedTags& tags() const { return tags_; }
  TagOutcome access_tags(const SlicedTags::Place& at, uint32_t mask, bool write) {
    return tags_.access(at, mask, write && write_back_);
  }
  bool sweeps() const { return !stacks_.empty(); }
  void access_stacks(const LineAccess& a, bool measured);

  // The accesses measured from now on fill histogram set `set` (one per
  // kernel when kernels share the cache; set 0 until told otherwise).
  void measure_into(size_t set) {
    if (set >= histograms_.size()) add_histogram_sets(set + 1);
    set_ = set;
  }
  // Distance histograms of the sweep stacks in one set, per stack (see
  // sweep_results).
  const std::vector<DistanceHistogram>& histograms(size_t set = 0) const;
  // Empties every set.
  void clear_histograms();
  std::vector<SweepResult> sweep_results(const std::vector<DistanceHistogram>& histograms) const;
  const LineShape& shape() const { return shape_; }

 private:
  void add_histogram_sets(size_t sets);

  LineShape shape_;
  bool write_back_ = false;
  SlicedTags tags_;  // the modeled cache, under kDefaultReplacement
  std::vector<SweepPoint> points_;
  std::vector<size_t> stack_of_point_;
  std::vector<std::unique_ptr<StackEngine>> stacks_;
  std::vector<std::vector<DistanceHistogram>> histograms_;  // per set, per stack
  size_t set_ = 0;  // the set measured accesses fill
};

}  // namespace sasskit::rdcache
