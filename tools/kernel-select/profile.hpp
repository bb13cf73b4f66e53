// kernel-select's view of a program: its kernel invocations in launch order,
// in columns, with whatever each input format knows about them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sasskit::kselect {

// A basic-block vector: per basic block (keyed by its leader PC) the warp
// instructions executed in it.
using Bbv = std::map<uint64_t, double>;

struct Profile {
  std::string source;               // input name, for messages
  std::string unit = "ns";          // what `duration` measures: ns, cycles, warp-insts
  std::string duration_from;        // the profile column or metric durations came from
  std::vector<std::string> names;   // distinct kernel names, first-seen order

  // One entry per invocation, chronological.
  std::vector<uint64_t> id;         // kernel id (1-based launch order unless the input has ids)
  std::vector<uint32_t> name;       // index into `names`
  std::vector<double> duration;

  // Optional columns: empty when the input does not have them.
  std::vector<double> insts;        // instructions executed (warp level)
  std::vector<uint64_t> ctas;       // thread blocks in the grid
  std::vector<uint64_t> warps;      // warps in the grid
  std::vector<std::string> feature_names;
  std::vector<double> features;     // row-major: size() x feature_names.size()
  std::vector<Bbv> bbv;

  size_t size() const { return id.size(); }
  // Index of `kernel` in names, added if new.
  uint32_t name_index(const std::string& kernel);
  void add(uint64_t invocation_id, const std::string& kernel, double time);

 private:
  std::map<std::string, uint32_t> name_lookup_;
};

}  // namespace sasskit::kselect
