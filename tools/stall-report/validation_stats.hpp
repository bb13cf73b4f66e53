// Error statistics of HyFiSS Table IV: MAPE for counts and cycles, MAE for
// percentages, Pearson's correlation coefficient.
#pragma once

#include <optional>
#include <vector>

namespace sasskit::stallreport {

// Mean of |sim - ref| / |ref| in percent, over pairs with ref != 0;
// empty when there is none.
std::optional<double> mape(const std::vector<double>& sim, const std::vector<double>& ref);
// Mean of |sim - ref|; empty for no pairs.
std::optional<double> mae(const std::vector<double>& sim, const std::vector<double>& ref);
// Pearson's r; empty for fewer than two pairs or a constant series.
std::optional<double> pearson(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace sasskit::stallreport
