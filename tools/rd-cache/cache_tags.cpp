#include "cache_tags.hpp"

#include "libcommon/diag.hpp"
#include "lru_tags.hpp"

namespace sasskit::rdcache {

namespace {
struct ReplacementPolicy {
  std::string_view name;
  std::unique_ptr<CacheTags> (*make)(uint64_t sets, uint64_t ways);
};

// A new policy: its class behind CacheTags, and one line here.
constexpr ReplacementPolicy kReplacementPolicies[] = {
    {"lru", make_lru_tags},
};
}  // namespace

std::unique_ptr<CacheTags> make_cache_tags(std::string_view policy, uint64_t sets, uint64_t ways) {
  for (const ReplacementPolicy& p : kReplacementPolicies)
    if (p.name == policy) return p.make(sets, ways);
  fail_usage("unknown cache replacement policy '" + std::string(policy) + "' (" + replacement_policy_names() + ")");
}

std::string replacement_policy_names() {
  std::string names;
  for (const ReplacementPolicy& p : kReplacementPolicies) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

}  // namespace sasskit::rdcache
