#include "formats/kernel_selector.hpp"

#include <charconv>
#include <optional>

#include "libcommon/diag.hpp"
#include "libcommon/kernel_name.hpp"
#include "libcommon/name_regex.hpp"

namespace sasskit {

namespace {

uint32_t parse_id(std::string_view s, const std::string& list) {
  uint32_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
    fail_usage("bad kernel list '" + list + "': '" + std::string(s) + "' is not a kernel id");
  return v;
}

}  // namespace

KernelSelection KernelSelection::parse(const std::string& list) {
  KernelSelection sel;
  sel.all_ = false;
  std::string_view rest(list);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      sel.ids_.insert(parse_id(item, list));
      continue;
    }
    uint32_t lo = parse_id(item.substr(0, dash), list);
    uint32_t hi = parse_id(item.substr(dash + 1), list);
    if (lo > hi) fail_usage("bad kernel list '" + list + "': range " + std::string(item) + " is empty");
    sel.ranges_.insert({lo, hi});
  }
  if (sel.ids_.empty() && sel.ranges_.empty()) fail_usage("empty kernel list");
  return sel;
}

bool KernelSelection::contains(uint32_t id) const {
  if (all_ || ids_.count(id)) return true;
  for (const auto& [lo, hi] : ranges_)
    if (id >= lo && id <= hi) return true;
  return false;
}

// -k: a name, or regex:EXPR, matched against one form of the kernel's name.
// The name is data: it is only compared, or searched by an automaton that
// takes time linear in its length (libcommon/name_regex.hpp), so a long
// hostile name costs no more than reading it.
class KernelNameFilter {
 public:
  KernelNameFilter(const std::string& option, const std::string& base) : base_(base) {
    constexpr std::string_view kRegex = "regex:";
    if (!option.starts_with(kRegex)) {
      exact_ = option;
      return;
    }
    try {
      regex_.emplace(std::string_view(option).substr(kRegex.size()));
    } catch (const Error& e) {
      fail_usage("bad -k '" + option + "': the regular expression does not compile: " + e.what());
    }
  }

  bool matches(const std::string& kernel_name) const {
    const std::string name = name_base(kernel_name);
    return regex_ ? regex_->search(name) : name == exact_;
  }

 private:
  std::string name_base(const std::string& name) const {
    if (base_ == "mangled") return name;
    if (base_ == "demangled") return demangle_kernel_name(name);
    return base_kernel_name(name);
  }

  std::string base_;
  std::string exact_;
  std::optional<NameRegex> regex_;
};

KernelSelector::KernelSelector(const KernelSelectionOptions& options)
    : skip_(options.launch_skip), count_(options.launch_count) {
  if (!options.ids.empty()) {
    ids_ = KernelSelection::parse(options.ids);
    stages_[kIds].option = "--kernels " + options.ids;
  }
  if (!options.name.empty()) {
    name_ = std::make_shared<const KernelNameFilter>(options.name, options.name_base);
    stages_[kName].option = "-k " + options.name;
    if (options.name_base != "function") stages_[kName].option += " (--kernel-name-base " + options.name_base + ")";
  }
  if (skip_ > 0) stages_[kSkip].option = "--launch-skip " + std::to_string(skip_);
  if (count_ > 0) stages_[kCount].option = "--launch-count " + std::to_string(count_);
}

void KernelSelector::keep_only(const std::set<uint32_t>& ids, const std::string& what) {
  if (planned_) {
    std::set<uint32_t> both;
    for (uint32_t id : ids)
      if (planned_->count(id)) both.insert(id);
    planned_ = std::move(both);
  } else {
    planned_ = ids;
  }
  stages_[kPlan].option = what;
}

bool KernelSelector::pass(Filter filter, bool passed) {
  if (passed) ++stages_[filter].kept;
  return passed;
}

bool KernelSelector::select(const KernelInfo& kernel) {
  ++launches_;
  if (!pass(kIds, ids_.contains(kernel.id)) || !pass(kName, !name_ || name_->matches(kernel.name)) ||
      !pass(kPlan, !planned_ || planned_->count(kernel.id)))
    return false;
  ++passed_;
  if (!pass(kSkip, passed_ > skip_) || !pass(kCount, count_ == 0 || kept_ < count_)) return false;
  ++kept_;
  return true;
}

void KernelSelector::fail_if_none_kept(const std::string& input) const {
  if (kept_ > 0) return;
  std::string counts;
  for (const Stage& stage : stages_)
    if (!stage.option.empty()) counts += (counts.empty() ? "" : ", ") + stage.option + " keeps " + std::to_string(stage.kept);
  if (counts.empty()) return;  // no filter: an input without launches is not a selection's doing
  throw Error(ExitCode::Failure, input,
              "no kernel kept: of its " + std::to_string(launches_) + (launches_ == 1 ? " launch, " : " launches, ") +
                  counts);
}

}  // namespace sasskit
