#include "level_stacks.hpp"

#include <algorithm>

#include "libcommon/diag.hpp"

namespace sasskit::rdcache {

const char* level_name(Level level) { return level == Level::L1 ? "l1" : "l2"; }

SetsWays sets_ways(uint64_t size_bytes, unsigned assoc, unsigned line_bytes, const std::string& what) {
  if (size_bytes == 0) fail_usage(what + ": a cache of size 0 cannot be modeled; give its size");
  if (size_bytes % line_bytes != 0)
    fail_usage(what + ": size " + std::to_string(size_bytes) + " is not a multiple of the " +
               std::to_string(line_bytes) + "-byte line");
  const uint64_t lines = size_bytes / line_bytes;
  if (assoc == 0) return SetsWays{1, lines};
  if (lines % assoc != 0)
    fail_usage(what + ": " + std::to_string(lines) + " lines do not divide into " +
               std::to_string(assoc) + "-way sets");
  return SetsWays{lines / assoc, assoc};
}

namespace {
SlicedTags model_tags(Level level, const CacheGeometry& model, unsigned slices) {
  const SetsWays sw =
      sets_ways(model.size_bytes, model.assoc, model.line_bytes, level == Level::L1 ? "l1d-size" : "l2-size");
  return SlicedTags(kDefaultReplacement, sw.sets, sw.ways, slices);
}
}  // namespace

LevelStacks::LevelStacks(Level level, const CacheGeometry& model, const std::vector<SweepPoint>& sweep,
                         unsigned slices)
    : shape_(line_shape(model, level_name(level))),
      write_back_(model.write_policy == WritePolicy::WriteBack),
      tags_(model_tags(level, model, slices)) {
  // One stack per distinct set count, deep enough for its largest point.
  std::vector<SetsWays> stacks;
  for (const SweepPoint& p : sweep) {
    if (p.level != level) continue;
    const SetsWays point = sets_ways(p.size_bytes, p.assoc, shape_.line_bytes, "--sweep");
    auto it = std::find_if(stacks.begin(), stacks.end(), [&](const SetsWays& s) { return s.sets == point.sets; });
    if (it == stacks.end()) {
      stacks.push_back(point);
      it = stacks.end() - 1;
    }
    it->ways = std::max(it->ways, point.ways);
    points_.push_back(p);
    stack_of_point_.push_back(static_cast<size_t>(it - stacks.begin()));
  }
  for (const SetsWays& s : stacks) stacks_.push_back(make_stack(s.sets, shape_.sectors_per_line(), s.ways));
  histograms_.resize(1);
  histograms_[0].resize(stacks_.size());
}

void LevelStacks::access_stacks(const LineAccess& a, bool measured) {
  uint32_t distance[kMaxSectorsPerLine];
  for (size_t i = 0; i < stacks_.size(); ++i) {
    const unsigned n = stacks_[i]->access(a.line, a.mask, distance);
    if (measured)
      for (unsigned s = 0; s < n; ++s) histograms_[set_][i].add(distance[s]);
  }
}

void LevelStacks::add_histogram_sets(size_t sets) {
  histograms_.resize(sets, std::vector<DistanceHistogram>(stacks_.size()));
}

const std::vector<DistanceHistogram>& LevelStacks::histograms(size_t set) const { return histograms_.at(set); }

void LevelStacks::clear_histograms() {
  histograms_.assign(1, std::vector<DistanceHistogram>(stacks_.size()));
  set_ = 0;
}

std::vector<SweepResult> LevelStacks::sweep_results(const std::vector<DistanceHistogram>& histograms) const {
  std::vector<SweepResult> out;
  for (size_t i = 0; i < points_.size(); ++i) {
    const SweepPoint& p = points_[i];
    const SetsWays sw = sets_ways(p.size_bytes, p.assoc, shape_.line_bytes, "--sweep");
    const DistanceHistogram& h = histograms[stack_of_point_[i]];
    out.push_back(SweepResult{p, sw.sets, h.accesses(), h.hits(sw.ways)});
  }
  return out;
}

}  // namespace sasskit::rdcache
