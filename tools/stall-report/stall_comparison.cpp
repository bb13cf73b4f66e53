#include "stall_comparison.hpp"

#include <algorithm>
#include <cmath>

#include "columns.hpp"
#include "text_table.hpp"

namespace sasskit::stallreport {

namespace {

double compared_stall_cycles(const Metrics& m) {
  double sum = 0;
  for (StallType t : kComparedStallTypes) sum += m.stall_type[size_t(t)];
  return sum;
}

std::string fixed3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::optional<double> simulated_stall_share(const Metrics& m, StallType type) {
  const double whole = compared_stall_cycles(m);
  const bool compared = std::find(kComparedStallTypes.begin(), kComparedStallTypes.end(), type) !=
                        kComparedStallTypes.end();
  if (whole <= 0 || !compared) return std::nullopt;
  return m.stall_type[size_t(type)] / whole;
}

std::optional<StallComparison> compare_stalls(const KernelReport& k, const ReferenceKernel& r) {
  const double compared = compared_stall_cycles(k.m);
  if (!r.stalls || r.stalls->mapped() <= 0 || compared <= 0) return std::nullopt;
  StallComparison c;
  c.kernel_id = k.id;
  c.name = k.name;
  c.source = r.stalls->source;
  for (size_t i = 0; i < kComparedStallTypes.size(); ++i) {
    const size_t t = size_t(kComparedStallTypes[i]);
    c.simulated[i] = k.m.stall_type[t] / compared;
    c.reference[i] = r.stalls->by_type[t] / r.stalls->mapped();
    c.distance += std::fabs(c.simulated[i] - c.reference[i]) / 2;
  }
  c.simulated_left_out = share(k.m.stall_cycles() - compared, k.m.stall_cycles());
  c.reference_left_out = share(r.stalls->unmapped, r.stalls->unmapped + r.stalls->mapped());
  return c;
}

void write_stall_comparison_text(std::ostream& out, const std::vector<StallComparison>& stalls) {
  out << "\nStall reasons (shares of the stall cycles both name; stall-report(1), STALL REASONS)\n";
  std::vector<std::string> header{"kernel", "name", "side"};
  for (StallType t : kComparedStallTypes) header.push_back(stall_type_name(t));
  header.insert(header.end(), {"left out", "distance"});
  TextTable t(header);
  for (const StallComparison& c : stalls) {
    auto row = [&](const char* side, const auto& shares, double left_out, const std::string& distance) {
      std::vector<std::string> cells{std::to_string(c.kernel_id), c.name, side};
      for (double s : shares) cells.push_back(percent(s));
      cells.insert(cells.end(), {percent(left_out), distance});
      t.add(cells);
    };
    row("simulated", c.simulated, c.simulated_left_out, "");
    row("reference", c.reference, c.reference_left_out, fixed3(c.distance));
  }
  t.print(out, {1, 2});
  std::vector<std::string> sources;
  for (const StallComparison& c : stalls)
    if (std::find(sources.begin(), sources.end(), c.source) == sources.end()) sources.push_back(c.source);
  out << "reference reasons from";
  for (const std::string& s : sources) out << ' ' << s;
  out << "; left out: simulated Idle and Other, reference reasons without a stall type\n";
}

void write_stall_comparison_json(JsonWriter& w, const std::vector<StallComparison>& stalls) {
  w.key("stalls").begin_array();
  for (const StallComparison& c : stalls) {
    w.begin_object().field("kernel_id", uint64_t(c.kernel_id)).field("kernel_name", c.name).field("source", c.source);
    for (const char* side : {"simulated", "reference"}) {
      const auto& shares = side[0] == 's' ? c.simulated : c.reference;
      w.key(side).begin_object();
      for (size_t i = 0; i < kComparedStallTypes.size(); ++i)
        w.field(std::string("stall_") + stall_type_name(kComparedStallTypes[i]) + "_frac", shares[i]);
      w.end_object();
    }
    w.field("simulated_left_out_frac", c.simulated_left_out).field("reference_left_out_frac", c.reference_left_out);
    w.field("distance", c.distance).end_object();
  }
  w.end_array();
}

}  // namespace sasskit::stallreport
