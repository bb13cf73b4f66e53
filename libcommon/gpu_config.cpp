#include "libcommon/gpu_config.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>
#include <string>

#include "libcommon/diag.hpp"

namespace sasskit {

namespace {
constexpr std::array<const char*, kUnitClasses> kUnitNames = {"INT",    "SP",   "DP",    "SFU",
                                                              "TENSOR", "LDST", "BRANCH"};

// The enumerator whose name in `names` (indexed by value) is `name`,
// ignoring case; false if none.
template <class Enum, size_t N>
bool from_name(const std::array<const char*, N>& names, std::string_view name, Enum& out) {
  for (size_t i = 0; i < N; ++i) {
    if (equals_ignoring_case(name, names[i])) {
      out = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}
}  // namespace

const char* unit_name(UnitClass u) {
  const auto i = static_cast<size_t>(u);
  return i < kUnitClasses ? kUnitNames[i] : "?";
}

bool unit_from_name(std::string_view name, UnitClass& out) { return from_name(kUnitNames, name, out); }

const char* scheduler_name(SchedulerPolicy p) { return name_of(kSchedulerPolicies, p).data(); }

bool scheduler_from_name(std::string_view name, SchedulerPolicy& out) {
  const auto policy = value_named(kSchedulerPolicies, name);
  if (policy) out = *policy;
  return policy.has_value();
}

std::string unit_key(UnitClass u) {
  std::string key = "unit-";
  for (const char* c = unit_name(u); *c; ++c)
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  return key;
}

uint64_t CacheGeometry::sets() const {
  if (assoc == 0 || line_bytes == 0) return 1;
  return std::max<uint64_t>(1, size_bytes / (uint64_t(line_bytes) * assoc));
}

namespace {

[[noreturn]] void invalid(const std::string& what) { fail_usage("GPU model: " + what); }

void require(bool present, const std::string& key) {
  if (!present)
    invalid("missing value for '" + key + "' (set it in the --config file or with --" + key + ")");
}

// A rate or clock that is set: finite and within `lo` .. `hi`, ranges wide
// enough for any GPU, so that inf, nan or 1e-300 never reach the model.
void require_in_range(double value, double lo, double hi, const std::string& key) {
  require(value != 0, key);
  if (!(value >= lo && value <= hi)) {
    std::ostringstream text;
    text << key << " = " << value << " is not in [" << lo << ", " << hi << "]";
    invalid(text.str());
  }
}

// The name goes into reports, stream records and --dump-config's quoted value, so it keeps to
// characters that every one of them carries unescaped and that read back unchanged.
bool is_plain_model_name(const std::string& name) {
  const auto plain = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || (c != '\0' && std::strchr(" ._+-()", c));
  };
  return std::all_of(name.begin(), name.end(), plain) && name.front() != ' ' && name.back() != ' ';
}

std::string is(const std::string& key, uint64_t value) { return key + " = " + std::to_string(value); }

void validate_cache(const CacheGeometry& c, const std::string& p) {
  if (c.size_bytes == 0) return;
  require(c.line_bytes > 0, p + "-line-size");
  require(c.sector_bytes > 0, p + "-sector-size");
  if (c.line_bytes % c.sector_bytes != 0) {
    invalid(is(p + "-sector-size", c.sector_bytes) + " does not divide " +
            is(p + "-line-size", c.line_bytes));
  }
  if (c.size_bytes % c.line_bytes != 0) {
    invalid(is(p + "-line-size", c.line_bytes) + " does not divide " + is(p + "-size", c.size_bytes));
  }
  if (c.assoc > 0 && (c.size_bytes / c.line_bytes) % c.assoc != 0) {
    invalid(is(p + "-assoc", c.assoc) + " does not divide the " +
            std::to_string(c.size_bytes / c.line_bytes) + " lines of " + p + " (" + p + "-size / " + p +
            "-line-size)");
  }
}

void validate_required(const GpuConfig& g) {
  require(!g.name.empty(), "name");
  if (!is_plain_model_name(g.name))
    invalid("name may hold only letters, digits, spaces (not at either end) and . _ + - ( )");  // never echoed
  require_in_range(g.clock_mhz, 1, 1e5, "clock-mhz");  // 1 MHz to 100 GHz
  const std::pair<uint64_t, const char*> positive[] = {{g.num_sms, "num-sms"},
                                                       {g.subcores_per_sm, "subcores-per-sm"},
                                                       {g.warp_size, "warp-size"},
                                                       {g.max_warps_per_sm, "max-warps-per-sm"},
                                                       {g.max_threads_per_sm, "max-threads-per-sm"},
                                                       {g.max_ctas_per_sm, "max-ctas-per-sm"},
                                                       {g.max_threads_per_cta, "max-threads-per-cta"},
                                                       {g.regs_per_sm, "regs-per-sm"},
                                                       {g.max_regs_per_thread, "max-regs-per-thread"},
                                                       {g.reg_alloc_unit, "reg-alloc-unit"},
                                                       {g.smem_per_sm, "smem-per-sm"},
                                                       {g.smem_per_cta, "smem-per-cta"},
                                                       {g.smem_alloc_unit, "smem-alloc-unit"},
                                                       {g.collector_units, "collector-units"},
                                                       {g.reg_banks, "reg-banks"},
                                                       {g.reg_ports_per_bank, "reg-ports-per-bank"},
                                                       {g.ibuffer_depth, "ibuffer-depth"},
                                                       {g.l1d.latency, "l1d-latency"},
                                                       {g.smem_banks, "smem-banks"},
                                                       {g.smem_latency, "smem-latency"},
                                                       {g.l2.size_bytes, "l2-size"},
                                                       {g.l2.latency, "l2-latency"},
                                                       {g.l2_slices, "l2-slices"},
                                                       {g.dram_latency, "dram-latency"}};
  for (const auto& [value, key] : positive) require(value > 0, key);
  require_in_range(g.dram_bandwidth_gbs, 1e-3, 1e6, "dram-bandwidth");  // GB/s
  require_in_range(g.noc_bytes_per_cycle, 1e-3, 1e7, "noc-bandwidth");  // bytes per clock
  if (g.noc_port_bytes_per_cycle != 0) require_in_range(g.noc_port_bytes_per_cycle, 1e-3, 1e7, "noc-port-bandwidth");
  if (g.cta_dispatch_rate != 0) require_in_range(g.cta_dispatch_rate, 1e-4, 1e4, "cta-dispatch-rate");  // CTAs per clock
  for (const auto& [value, key] : {std::pair{g.dram_efficiency, "dram-efficiency"}, std::pair{g.l2_efficiency, "l2-efficiency"}})
    if (!(value > 0 && value <= 1)) invalid(key + std::string(" = ") + std::to_string(value) + " is not in (0, 1]");
  if (g.has_l0i) require(g.l0i.size_bytes > 0, "l0i-size");
  for (size_t i = 0; i < kUnitClasses; ++i) {
    const std::string key = unit_key(static_cast<UnitClass>(i));
    require(g.units[i].count > 0, key + "-count");
    require(g.units[i].latency > 0, key + "-latency");
    require(g.units[i].initiation_interval > 0, key + "-interval");
  }
}

void validate_sm_limits(const GpuConfig& g) {
  if (uint64_t(g.max_warps_per_sm) * g.warp_size < g.max_threads_per_sm) {
    invalid(is("max-threads-per-sm", g.max_threads_per_sm) + " exceeds max-warps-per-sm × warp-size = " +
            std::to_string(uint64_t(g.max_warps_per_sm) * g.warp_size));
  }
  if (g.max_threads_per_cta > g.max_threads_per_sm) {
    invalid(is("max-threads-per-cta", g.max_threads_per_cta) + " exceeds " +
            is("max-threads-per-sm", g.max_threads_per_sm));
  }
  if (g.regs_per_sm % g.reg_alloc_unit != 0) {
    invalid(is("reg-alloc-unit", g.reg_alloc_unit) + " does not divide " + is("regs-per-sm", g.regs_per_sm));
  }
}

void validate_smem(const GpuConfig& g) {
  const auto& co = g.smem_carveouts_kb;
  const uint64_t largest =
      co.empty() ? g.smem_per_sm : uint64_t(*std::max_element(co.begin(), co.end())) * 1024;
  if (!co.empty() && std::find(co.begin(), co.end(), g.smem_per_sm / 1024) == co.end()) {
    invalid(is("smem-per-sm", g.smem_per_sm) + " is not one of smem-carveouts-kb");
  }
  if (g.smem_per_cta + g.smem_reserved_per_cta > std::max(largest, g.smem_per_sm)) {
    invalid(is("smem-per-cta", g.smem_per_cta) +
            " plus smem-reserved-per-cta exceeds the largest carve-out (" +
            std::to_string(std::max(largest, g.smem_per_sm)) + " bytes)");
  }
  if (g.unified_l1_smem_bytes > 0 && g.l1d.size_bytes + g.smem_per_sm > g.unified_l1_smem_bytes) {
    invalid("l1d-size + smem-per-sm = " + std::to_string(g.l1d.size_bytes + g.smem_per_sm) + " exceeds " +
            is("unified-l1-size", g.unified_l1_smem_bytes));
  }
  if (g.unified_l1_smem_bytes > 0 && largest > g.unified_l1_smem_bytes) {
    invalid("the largest of smem-carveouts-kb exceeds " + is("unified-l1-size", g.unified_l1_smem_bytes));
  }
}

}  // namespace

void validate(const GpuConfig& gpu) {
  validate_required(gpu);
  validate_sm_limits(gpu);
  validate_smem(gpu);
  validate_cache(gpu.l0i, "l0i");
  validate_cache(gpu.l1i, "l1i");
  validate_cache(gpu.l1d, "l1d");
  validate_cache(gpu.l2, "l2");
}

}  // namespace sasskit
