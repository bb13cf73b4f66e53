#include "profile.hpp"

namespace sasskit::kselect {

uint32_t Profile::name_index(const std::string& kernel) {
  auto [it, added] = name_lookup_.emplace(kernel, static_cast<uint32_t>(names.size()));
  if (added) names.push_back(kernel);
  return it->second;
}

void Profile::add(uint64_t invocation_id, const std::string& kernel, double time) {
  id.push_back(invocation_id);
  name.push_back(name_index(kernel));
  duration.push_back(time);
}

}  // namespace sasskit::kselect
