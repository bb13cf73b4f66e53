// The `plan` record (formats/STREAM.md): the kernel invocations that
// kernel-select chose to simulate, the cluster each one represents and the
// weight that scales its simulated time back to the whole program. Also the
// loader trace-unpack --plan uses to ask "is kernel K selected?".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/stream.hpp"

namespace sasskit {

// One group of invocations that a sample stands for.
struct PlanCluster {
  std::string label;     // e.g. "sgemm_128x64_nn#2"
  uint64_t size = 0;     // invocations in the cluster (N_i)
  uint32_t samples = 0;  // picks drawn from it (m_i)
  double mean = 0;       // mean duration of its invocations
  double sd = 0;         // their standard deviation
  bool operator==(const PlanCluster&) const = default;
};

// One selected invocation. Picked `picks` times (sampling with replacement),
// it weighs picks * N_i / m_i: projected total = sum of weight * its time.
struct PlanEntry {
  uint64_t id = 0;        // kernel id (Accel-Sim kernel-N numbering)
  std::string name;
  uint32_t cluster = 0;   // index into Plan::clusters
  uint32_t picks = 1;
  double weight = 1;
  bool operator==(const PlanEntry&) const = default;
};

struct Plan {
  std::string method;                   // stem, pka, sieve, photon, random
  std::map<std::string, double> params; // epsilon, confidence, seed, ...
  std::string unit;                     // what durations measure: ns, cycles, warp-insts
  uint64_t invocations = 0;             // invocations in the profile
  double total = 0;                     // their summed duration
  std::optional<double> error_bound;    // theoretical relative error (stem only)
  std::vector<PlanCluster> clusters;
  std::vector<PlanEntry> entries;       // sorted by id, one per distinct id
  bool operator==(const Plan&) const = default;
};

// Which kernels a plan keeps, for trace-unpack --plan.
class PlanSelection {
 public:
  explicit PlanSelection(Plan plan);
  bool selected(uint64_t kernel_id) const { return index_.count(kernel_id) != 0; }
  // The entry of a selected kernel; nullptr when not selected.
  const PlanEntry* entry(uint64_t kernel_id) const;
  const Plan& plan() const { return plan_; }

 private:
  Plan plan_;
  std::unordered_map<uint64_t, size_t> index_;
};

// Loads a plan written by kernel-select: a stream holding a plan record
// (the first one is used) or the CSV of --format csv. BadInput / Io errors
// name the file.
Plan load_plan(const std::string& path);

// CSV form (--format csv): a `# key=value` comment line per plan field, then
// "id,name,cluster,picks,weight" rows. read_plan_csv parses it back.
void write_plan_csv(std::ostream& out, const Plan& plan);
Plan read_plan_csv(std::istream& in, const std::string& name);

}  // namespace sasskit

namespace sasskit::stream {

template <>
struct RecordCodec<Plan> {
  static constexpr RecordType type = RecordType::Plan;
  static void pack(Packer& pk, const Plan& p);
  static Plan unpack(const Record& r);
};

}  // namespace sasskit::stream
