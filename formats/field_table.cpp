#include "formats/field_table.hpp"

namespace sasskit::stream::detail {

void check_rates(const std::string& where, std::string_view key, std::span<const double> rates) {
  for (double v : rates)
    if (!(v >= 0 && v <= 1))
      fail_input(where, "field '" + std::string(key) + "' holds " + std::to_string(v) + ", not a rate in [0, 1]");
}

}  // namespace sasskit::stream::detail
