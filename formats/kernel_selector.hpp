// Which kernels of a trace a run keeps: ids, a plan's kernels, and Nsight
// Compute's filters with ncu's meaning (-k NAME or regex:EXPR on the name
// base, then --launch-skip and --launch-count counting the launches that
// pass the filters). Every trace source (formats/trace_source.hpp,
// archive_source.hpp) asks one KernelSelector once per launch, in input
// order; the options that made it are recorded in the stream's provenance.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "formats/records.hpp"
#include "libcommon/kernel_selection.hpp"

namespace sasskit {

// Kernel ids chosen with a list such as "1,3-5"; empty = every kernel.
class KernelSelection {
 public:
  KernelSelection() = default;
  // Throws a usage error naming the bad item.
  static KernelSelection parse(const std::string& list);
  bool all() const { return all_; }
  bool contains(uint32_t id) const;

 private:
  bool all_ = true;
  std::set<uint32_t> ids_;
  std::set<std::pair<uint32_t, uint32_t>> ranges_;
};

class KernelNameFilter;

class KernelSelector {
 public:
  // Keeps every kernel.
  KernelSelector() = default;
  // A usage error for a bad id list, or a regex that does not compile
  // (naming it).
  explicit KernelSelector(const KernelSelectionOptions& options);

  // Keeps only kernels whose id is also in `ids`; `what` names them in
  // messages ("--plan").
  void keep_only(const std::set<uint32_t>& ids, const std::string& what);

  // Whether the next launch is kept. Call it once per kernel, in input
  // order: skip and count advance with every launch that passes the id,
  // name and plan filters.
  bool select(const KernelInfo& kernel);

  // After the whole input: when a filter was given and no launch was kept,
  // fails (ExitCode::Failure, where `input`) with one line saying how many
  // launches each filter kept, e.g. "no kernel kept: of its 2 launches,
  // -k regex:gemm keeps 1, --launch-skip 1 keeps 0".
  void fail_if_none_kept(const std::string& input) const;

 private:
  // The filters in the order they apply; each counts the launches that
  // passed it and every filter before it.
  enum Filter { kIds, kName, kPlan, kSkip, kCount, kFilters };
  struct Stage {
    std::string option;  // as given, for messages; empty when not given
    uint64_t kept = 0;
  };
  bool pass(Filter filter, bool passed);

  KernelSelection ids_;
  std::shared_ptr<const KernelNameFilter> name_;  // none: every name
  std::optional<std::set<uint32_t>> planned_;     // --plan; none when not given
  uint64_t skip_ = 0;
  uint64_t count_ = 0;  // 0: no limit
  std::array<Stage, kFilters> stages_;
  uint64_t launches_ = 0, passed_ = 0, kept_ = 0;
};

}  // namespace sasskit
