#include "read_profile.hpp"

#include <algorithm>
#include <array>

#include "libcommon/diag.hpp"
#include "summary_plan.hpp"

namespace sasskit::kselect {
namespace {

using profile::Kernel;
using profile::Layout;

// PKA's twelve microarchitecture-agnostic features: pka-micro21 Table 2
// (metric spellings as ncu prints them).
constexpr std::array<const char*, 12> kPkaMetrics = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "smsp__inst_executed_op_global_ld.sum",
    "smsp__inst_executed_op_global_st.sum",
    "smsp__inst_executed_op_local_ld.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "launch__grid_size",
};

// Columns of the plain layout that are not PKA features.
constexpr std::array<const char*, 5> kPlainColumns = {"duration", "cycles", "insts", "ctas", "warps"};

bool all_have(const std::vector<Kernel>& ks, std::string_view value) {
  return !ks.empty() && std::all_of(ks.begin(), ks.end(), [&](const Kernel& k) { return k.values.contains(value); });
}

double value(const profile::Profile& src, const Kernel& k, std::string_view name) {
  const auto text = k.values.get(name);
  if (!text) fail_input(src.source, k.line, "kernel '" + k.name + "' has no " + std::string(name));
  return profile::number_at(src.source, k.line, name, *text);
}

std::vector<std::string> feature_names(const profile::Profile& src) {
  std::vector<std::string> names;
  if (src.layout == Layout::Plain) {
    for (uint32_t c = 0; c < src.columns->size(); ++c) {
      const std::string& column = src.columns->name(c);
      if (std::find(kPlainColumns.begin(), kPlainColumns.end(), profile::lower_trimmed(column)) == kPlainColumns.end())
        names.push_back(column);
    }
  } else {
    for (const char* f : kPkaMetrics)
      if (all_have(src.kernels, f)) names.push_back(f);
  }
  return names;
}

// Which duration every launch has: cycles first (as PKA and STEM measure),
// else time.
bool use_cycles(const profile::Profile& src) {
  const auto& ks = src.kernels;
  auto without = [&](auto duration) {
    return std::find_if(ks.begin(), ks.end(), [&](const Kernel& k) { return !(k.*duration).has_value(); });
  };
  if (without(&Kernel::cycles) == ks.end()) return true;
  // A file with no times lacks the cycles of a launch; name that one.
  const bool any_time = std::any_of(ks.begin(), ks.end(), [](const Kernel& k) { return k.time_ns.has_value(); });
  if (auto k = any_time ? without(&Kernel::time_ns) : without(&Kernel::cycles); k != ks.end())
    fail_input(src.source, k->line,
                 "kernel '" + k->name + "' has no duration: expected gpc__cycles_elapsed.*, gpu__time_duration.sum, "
                 "the Elapsed Cycles or Duration sections, a Duration column or a duration column");
  return false;
}

void add_counts(const profile::Profile& src, Profile& p) {
  const auto& ks = src.kernels;
  const bool plain = src.layout == Layout::Plain;
  const char* insts = plain ? "insts" : "smsp__inst_executed.sum";
  if (all_have(ks, insts))
    for (const Kernel& k : ks) p.insts.push_back(value(src, k, insts));
  if (plain) {
    if (all_have(ks, "ctas"))
      for (const Kernel& k : ks) p.ctas.push_back(profile::count_at(src.source, k.line, "ctas", *k.values.get("ctas")));
    if (all_have(ks, "warps"))
      for (const Kernel& k : ks) p.warps.push_back(profile::count_at(src.source, k.line, "warps", *k.values.get("warps")));
    return;
  }
  if (!std::all_of(ks.begin(), ks.end(), [](const Kernel& k) { return k.ctas > 0; })) return;
  const bool threads = std::all_of(ks.begin(), ks.end(), [](const Kernel& k) { return k.threads_per_cta > 0; });
  for (const Kernel& k : ks) {
    p.ctas.push_back(k.ctas);
    if (threads) p.warps.push_back(k.ctas * ((k.threads_per_cta + 31) / 32));
  }
}

}  // namespace

bool looks_like_stream(std::istream& in) {
  int c = in.peek();
  return c != std::char_traits<char>::eof() && ((c & 0xF0) == 0x80 || c == 0xDE || c == 0xDF);
}

void require_invocations(const Profile& p) {
  if (p.size() == 0) fail_input(p.source, "no kernel invocations found");
}

Profile from_export(const profile::Profile& src) {
  Profile p;
  p.source = src.source;
  if (is_summary(src))
    fail_input(src.source, std::string("this ") + profile::layout_name(src.layout) +
                               " export has one row per kernel name, not per launch: sampling needs a trace "
                               "(nvprof --print-gpu-trace, nsys stats -r cuda_gpu_trace, ncu, get_stats.py -K)");
  if (src.kernels.empty()) fail_input(src.source, "no kernel invocations found");
  // A lone launch needs no duration: its plan is that launch (methods.hpp).
  const Kernel& first = src.kernels.front();
  const bool untimed = src.kernels.size() == 1 && !first.cycles && !first.time_ns;
  const bool cycles = !untimed && use_cycles(src);
  p.unit = cycles ? "cycles" : "ns";
  if (!untimed) p.duration_from = cycles ? src.cycles_from : src.time_from;
  p.feature_names = feature_names(src);
  for (const Kernel& k : src.kernels) {
    p.add(k.id.value_or(p.size() + 1), k.name, untimed ? 0 : cycles ? *k.cycles : *k.time_ns);
    for (const auto& f : p.feature_names) p.features.push_back(value(src, k, f));
  }
  add_counts(src, p);
  require_invocations(p);
  return p;
}

}  // namespace sasskit::kselect
