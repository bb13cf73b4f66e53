#include "formats/kernel_selector.hpp"

#include <regex.h>

#include <charconv>

#include "libcommon/diag.hpp"
#include "libcommon/kernel_name.hpp"

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

KernelSelection KernelSelection::intersect(const std::set<uint32_t>& ids) const {
  KernelSelection both;
  both.all_ = false;
  for (uint32_t id : ids)
    if (contains(id)) both.ids_.insert(id);
  return both;
}

bool KernelSelection::contains(uint32_t id) const {
  if (all_ || ids_.count(id)) return true;
  for (const auto& [lo, hi] : ranges_)
    if (id >= lo && id <= hi) return true;
  return false;
}

// -k: a name, or regex:EXPR, matched against one form of the kernel's name.
// The name is data: it is only compared or searched, with glibc's POSIX
// matcher, which keeps no stack per character, so a long hostile name cannot
// exhaust the stack (std::regex would).
class KernelNameFilter {
 public:
  KernelNameFilter(const std::string& option, const std::string& base) : base_(base) {
    constexpr std::string_view kRegex = "regex:";
    if (!option.starts_with(kRegex)) {
      exact_ = option;
      return;
    }
    const std::string expr = option.substr(kRegex.size());
    if (const int error = ::regcomp(&regex_, expr.c_str(), REG_EXTENDED | REG_NOSUB)) {
      char why[256];
      ::regerror(error, &regex_, why, sizeof why);
      fail_usage("bad -k '" + option + "': the regular expression does not compile: " + why);
    }
    compiled_ = true;
  }
  ~KernelNameFilter() {
    if (compiled_) ::regfree(&regex_);
  }
  KernelNameFilter(const KernelNameFilter&) = delete;
  KernelNameFilter& operator=(const KernelNameFilter&) = delete;

  bool matches(const std::string& kernel_name) const {
    const std::string name = name_base(kernel_name);
    if (!compiled_) return name == exact_;
    regmatch_t whole{0, static_cast<regoff_t>(name.size())};  // the whole name, NUL bytes included
    return ::regexec(&regex_, name.c_str(), 1, &whole, REG_STARTEND) == 0;
  }

 private:
  std::string name_base(const std::string& name) const {
    if (base_ == "mangled") return name;
    if (base_ == "demangled") return demangle_kernel_name(name);
    return base_kernel_name(name);
  }

  std::string base_;
  std::string exact_;
  regex_t regex_{};
  bool compiled_ = false;
};

KernelSelector::KernelSelector(const KernelSelectionOptions& options)
    : skip_(options.launch_skip), count_(options.launch_count) {
  if (!options.ids.empty()) {
    ids_ = KernelSelection::parse(options.ids);
    filters_ = "--kernels " + options.ids;
  }
  if (!options.name.empty()) {
    name_ = std::make_shared<const KernelNameFilter>(options.name, options.name_base);
    filters_ += (filters_.empty() ? "-k " : " and -k ") + options.name;
    if (options.name_base != "function") filters_ += " (--kernel-name-base " + options.name_base + ")";
  }
}

void KernelSelector::keep_only(const std::set<uint32_t>& ids, const std::string& what) {
  ids_ = ids_.intersect(ids);
  filters_ += (filters_.empty() ? "" : " and ") + what;
}

bool KernelSelector::passes_filters(const KernelInfo& kernel) const {
  return ids_.contains(kernel.id) && (!name_ || name_->matches(kernel.name));
}

bool KernelSelector::select(const KernelInfo& kernel) {
  ++launches_;
  if (!passes_filters(kernel)) return false;
  ++passed_;
  if (passed_ <= skip_ || (count_ > 0 && kept_ == count_)) return false;
  ++kept_;
  return true;
}

void KernelSelector::warn_if_none_kept(const std::string& input) const {
  if (kept_ > 0 || (filters_.empty() && skip_ == 0)) return;
  const std::string kernels = std::to_string(launches_) + (launches_ == 1 ? " kernel" : " kernels");
  if (passed_ == 0) {
    warn(input, "no kernel kept: none of its " + kernels + " passes " + filters_);
    return;
  }
  if (filters_.empty()) {
    warn(input, "no kernel kept: --launch-skip " + std::to_string(skip_) + " skips all its " + kernels);
    return;
  }
  warn(input, "no kernel kept: " + std::to_string(passed_) + " of its " + kernels + (passed_ == 1 ? " passes " : " pass ") +
                  filters_ + ", and --launch-skip " + std::to_string(skip_) + (passed_ == 1 ? " skips it" : " skips them all"));
}

}  // namespace sasskit
