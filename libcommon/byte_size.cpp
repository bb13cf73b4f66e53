#include "libcommon/byte_size.hpp"

#include <charconv>

#include "libcommon/name_table.hpp"

namespace sasskit {

namespace {
struct Suffix {
  std::string_view name;  // compared ignoring case
  uint64_t factor;
};
constexpr Suffix kSuffixes[] = {
    {"b", 1},           {"k", 1ull << 10}, {"kb", 1ull << 10}, {"kib", 1ull << 10}, {"m", 1ull << 20},
    {"mb", 1ull << 20}, {"mib", 1ull << 20}, {"g", 1ull << 30}, {"gb", 1ull << 30}, {"gib", 1ull << 30},
};

// The factor of a suffix; 0 for text that is none.
uint64_t suffix_factor(std::string_view unit) {
  for (const Suffix& s : kSuffixes)
    if (equals_ignoring_case(s.name, unit)) return s.factor;
  return 0;
}
}  // namespace

ParsedByteSize parse_byte_size(std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return {0, ByteSizeError::NotASize};
  std::string_view unit(end, text.data() + text.size() - end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) return {value, std::nullopt};
  const uint64_t factor = suffix_factor(unit);
  if (factor == 0) return {0, ByteSizeError::NotASize};
  if (value > UINT64_MAX / factor) return {0, ByteSizeError::TooLarge};
  return {value * factor, std::nullopt};
}

std::string format_byte_size(uint64_t bytes) {
  if (bytes != 0 && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes != 0 && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes);
}

}  // namespace sasskit
