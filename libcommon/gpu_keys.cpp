#include "libcommon/gpu_keys.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "libcommon/byte_size.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::gpu_keys {

namespace {

Ref<CacheGeometry> cache_of(CacheGeometry GpuConfig::*member) {
  return [member](GpuConfig& g) -> CacheGeometry& { return g.*member; };
}

void add_cache_keys(std::vector<Key>& keys, const std::string& p, const std::string& what,
                    CacheGeometry GpuConfig::*member) {
  auto cache = cache_of(member);
  auto field = [cache](auto CacheGeometry::*m) {
    using T = std::remove_reference_t<decltype(std::declval<CacheGeometry&>().*m)>;
    return Ref<T>([cache, m](GpuConfig& g) -> T& { return cache(g).*m; });
  };
  keys.push_back(
      {p + "-size", what + " capacity (0: perfect/absent)", field(&CacheGeometry::size_bytes), true});
  keys.push_back({p + "-line-size", what + " line size", field(&CacheGeometry::line_bytes), true});
  keys.push_back({p + "-sector-size", what + " sector size", field(&CacheGeometry::sector_bytes), true});
  keys.push_back({p + "-assoc", what + " ways (0: fully associative)", field(&CacheGeometry::assoc)});
  keys.push_back({p + "-latency", what + " hit latency, cycles", field(&CacheGeometry::latency)});
  keys.push_back({p + "-mshrs", what + " outstanding misses (0: unlimited)", field(&CacheGeometry::mshrs)});
  keys.push_back({p + "-write-policy", what + " write policy: " + names_of(kWritePolicies, ", ", " or "),
                  field(&CacheGeometry::write_policy)});
  keys.push_back({p + "-write-allocate", what + " allocates a line on a write miss",
                  field(&CacheGeometry::write_allocate)});
}

void add_unit_keys(std::vector<Key>& keys) {
  for (size_t i = 0; i < kUnitClasses; ++i) {
    const std::string u = unit_name(static_cast<UnitClass>(i));
    const std::string key = unit_key(static_cast<UnitClass>(i));
    auto field = [i](unsigned ExecUnit::*m) {
      return Ref<unsigned>([i, m](GpuConfig& g) -> unsigned& { return g.units[i].*m; });
    };
    keys.push_back({key + "-count", u + " pipelines per sub-core", field(&ExecUnit::count)});
    keys.push_back({key + "-latency", u + " result latency, cycles", field(&ExecUnit::latency)});
    keys.push_back(
        {key + "-interval", u + " initiation interval, cycles", field(&ExecUnit::initiation_interval)});
  }
}

template <class T>
Ref<T> member(T GpuConfig::*m) {
  return [m](GpuConfig& g) -> T& { return g.*m; };
}

std::vector<Key> make_keys() {
  using G = GpuConfig;
  std::vector<Key> k = {
      {"name", "model name, e.g. QV100", member(&G::name)},
      {"clock-mhz", "SM clock, MHz", member(&G::clock_mhz)},
      {"num-sms", "streaming multiprocessors", member(&G::num_sms)},
      {"subcores-per-sm", "sub-cores (warp schedulers) per SM", member(&G::subcores_per_sm)},
      {"warp-size", "threads per warp", member(&G::warp_size)},
      {"max-warps-per-sm", "resident warps per SM", member(&G::max_warps_per_sm)},
      {"max-threads-per-sm", "resident threads per SM", member(&G::max_threads_per_sm)},
      {"max-ctas-per-sm", "resident CTAs per SM", member(&G::max_ctas_per_sm)},
      {"max-threads-per-cta", "threads per CTA", member(&G::max_threads_per_cta)},
      {"regs-per-sm", "32-bit registers per SM", member(&G::regs_per_sm)},
      {"max-regs-per-thread", "registers per thread", member(&G::max_regs_per_thread)},
      {"reg-alloc-unit", "registers per warp are allocated in multiples of this", member(&G::reg_alloc_unit)},
      {"smem-per-sm", "shared memory per SM at the chosen carve-out", member(&G::smem_per_sm), true},
      {"smem-per-cta", "shared memory one CTA may use", member(&G::smem_per_cta), true},
      {"smem-alloc-unit", "shared memory allocation granularity", member(&G::smem_alloc_unit), true},
      {"smem-carveouts-kb", "selectable shared-memory carve-outs, KiB", member(&G::smem_carveouts_kb)},
      {"smem-reserved-per-cta", "shared memory the system reserves per CTA",
       member(&G::smem_reserved_per_cta), true},
      {"unified-l1-size", "L1 data cache + shared memory storage (0: separate)",
       member(&G::unified_l1_smem_bytes), true},
      {"scheduler", "warp scheduler policy: " + names_of(kSchedulerPolicies, ", ", " or "), member(&G::scheduler)},
      {"collector-units", "operand collector units per sub-core", member(&G::collector_units)},
      {"reg-banks", "register file banks per sub-core", member(&G::reg_banks)},
      {"reg-ports-per-bank", "ports per register bank (reads and write-backs)",
       member(&G::reg_ports_per_bank)},
      {"ibuffer-depth", "decoded instructions buffered per warp", member(&G::ibuffer_depth)},
      {"has-l0i", "each sub-core has an L0 instruction cache", member(&G::has_l0i)},
  };
  add_cache_keys(k, "l0i", "L0 instruction cache (per sub-core)", &G::l0i);
  add_cache_keys(k, "l1i", "L1 instruction cache (per SM)", &G::l1i);
  k.push_back({"inst-prefetch-lines", "instruction lines a sub-core's stream buffer fetches ahead of a miss (0: none)",
               member(&G::inst_prefetch_lines)});
  add_unit_keys(k);
  add_cache_keys(k, "l1d", "L1 data cache (per SM)", &G::l1d);
  std::vector<Key> memory = {
      {"l1-caches-global-loads", "global loads are cached in L1 by default",
       member(&G::l1_caches_global_loads)},
      {"smem-banks", "shared memory banks", member(&G::smem_banks)},
      {"smem-latency", "shared memory load latency, cycles", member(&G::smem_latency)},
  };
  k.insert(k.end(), memory.begin(), memory.end());
  add_cache_keys(k, "l2", "L2 cache (whole chip)", &G::l2);
  std::vector<Key> chip = {
      {"l2-slices", "L2 slices (banks)", member(&G::l2_slices)},
      {"dram-latency", "DRAM latency beyond L2, SM cycles", member(&G::dram_latency)},
      {"l2-atomic-latency", "cycles an atomic spends in L2's atomic unit beyond an L2 hit",
       member(&G::l2_atomic_latency)},
      {"dram-bandwidth", "DRAM bandwidth, GB/s", member(&G::dram_bandwidth_gbs)},
      {"dram-efficiency", "share of dram-bandwidth that a stream of misses sustains", member(&G::dram_efficiency)},
      {"noc-bandwidth", "interconnect bandwidth, bytes per SM cycle, whole chip",
       member(&G::noc_bytes_per_cycle)},
      {"l2-efficiency", "share of noc-bandwidth that a stream of L2 hits sustains", member(&G::l2_efficiency)},
      {"noc-port-bandwidth", "one SM's interconnect port, bytes per SM cycle (0: a line per cycle)",
       member(&G::noc_port_bytes_per_cycle)},
      {"kernel-launch-latency", "cycles between a kernel and the next one in its stream",
       member(&G::kernel_launch_latency)},
      {"kernel-fixed-cycles",
       "a kernel's fixed start and end cost within its cycles (Nsight Compute's elapsed cycles), spent before "
       "its first CTA",
       member(&G::kernel_fixed_cycles)},
      {"cta-launch-latency", "cycles from a free CTA slot to the next CTA's start", member(&G::cta_launch_latency)},
      {"cta-dispatch-rate", "CTAs the GPU dispatches to its SMs per cycle, whole chip (0: no limit)",
       member(&G::cta_dispatch_rate)},
      {"max-concurrent-kernels", "kernels of different streams resident on the GPU at once (0: no limit)",
       member(&G::max_concurrent_kernels)},
  };
  k.insert(k.end(), chip.begin(), chip.end());
  return k;
}

}  // namespace

const std::vector<Key>& keys() {
  static const std::vector<Key> all = make_keys();
  return all;
}

const Key* lookup_key(std::string_view name) {
  for (const Key& k : keys()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

const Key& find_key(std::string_view name) {
  if (const Key* k = lookup_key(name)) return *k;
  fail_usage("unknown GPU config key '" + std::string(name) + "'");
}

namespace {

[[noreturn]] void bad_value(const Key& key, std::string_view value, const std::string& expected) {
  fail_usage(key.name + ": expected " + expected + ", got '" + std::string(value) + "'");
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

uint64_t parse_count(const Key& key, std::string_view text) {
  if (!key.size) {
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data() || std::string_view(end, text.data() + text.size() - end)
                                                       .find_first_not_of(' ') != std::string_view::npos)
      bad_value(key, text, "a whole number");
    return value;
  }
  const ParsedByteSize size = parse_byte_size(text);
  if (size.error == ByteSizeError::TooLarge) bad_value(key, text, "a size below 2^64 bytes");
  if (size.error) bad_value(key, text, kByteSizeForm);
  return size.bytes;
}

// "none" is the empty list: CLI11 config files cannot give an option zero values.
std::vector<unsigned> parse_list(const Key& key, std::string_view text) {
  std::vector<unsigned> out;
  if (lower(text) == "none") return out;
  std::string item;
  auto flush = [&] {
    if (item.empty()) return;
    const uint64_t v = parse_count(key, item);
    if (v > UINT32_MAX) bad_value(key, item, "a number below 2^32");
    out.push_back(static_cast<unsigned>(v));
    item.clear();
  };
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '[' || c == ']') {
      flush();
    } else {
      item += c;
    }
  }
  flush();
  return out;
}

bool parse_bool(const Key& key, std::string_view text) {
  const std::string t = lower(text);
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  bad_value(key, text, "true or false");
}

double parse_real(const Key& key, std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(v >= 0)) bad_value(key, text, "a non-negative number");
  return v;
}

struct Setter {
  const Key& key;
  std::string_view text;
  void operator()(const Ref<unsigned>& r) const {
    const uint64_t v = parse_count(key, text);
    if (v > UINT32_MAX) bad_value(key, text, "a number below 2^32");
    r(gpu) = static_cast<unsigned>(v);
  }
  void operator()(const Ref<uint64_t>& r) const { r(gpu) = parse_count(key, text); }
  void operator()(const Ref<double>& r) const { r(gpu) = parse_real(key, text); }
  void operator()(const Ref<bool>& r) const { r(gpu) = parse_bool(key, text); }
  void operator()(const Ref<std::string>& r) const { r(gpu) = std::string(text); }
  void operator()(const Ref<std::vector<unsigned>>& r) const { r(gpu) = parse_list(key, text); }
  void operator()(const Ref<SchedulerPolicy>& r) const {
    if (!scheduler_from_name(text, r(gpu))) bad_value(key, text, names_of(kSchedulerPolicies, ", ", " or "));
  }
  void operator()(const Ref<WritePolicy>& r) const {
    const auto policy = value_named(kWritePolicies, text);
    if (!policy) bad_value(key, text, names_of(kWritePolicies, ", ", " or "));
    r(gpu) = *policy;
  }
  GpuConfig& gpu;
};

std::string format_real(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

struct Formatter {
  const Key& key;
  GpuConfig& gpu;
  std::string operator()(const Ref<unsigned>& r) const {
    return key.size ? format_byte_size(r(gpu)) : std::to_string(r(gpu));
  }
  std::string operator()(const Ref<uint64_t>& r) const {
    return key.size ? format_byte_size(r(gpu)) : std::to_string(r(gpu));
  }
  std::string operator()(const Ref<double>& r) const { return format_real(r(gpu)); }
  std::string operator()(const Ref<bool>& r) const { return r(gpu) ? "true" : "false"; }
  std::string operator()(const Ref<std::string>& r) const { return '"' + r(gpu) + '"'; }
  std::string operator()(const Ref<std::vector<unsigned>>& r) const {
    if (r(gpu).empty()) return "none";
    std::string out = "[";
    for (unsigned v : r(gpu)) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
    return out + "]";
  }
  std::string operator()(const Ref<SchedulerPolicy>& r) const {
    return scheduler_name(r(gpu));
  }
  std::string operator()(const Ref<WritePolicy>& r) const {
    return std::string(name_of(kWritePolicies, r(gpu)));
  }
};

}  // namespace

void set_value(GpuConfig& gpu, const Key& key, std::string_view text) { std::visit(Setter{key, text, gpu}, key.field); }

std::string value_text(const Key& key, GpuConfig& gpu) { return std::visit(Formatter{key, gpu}, key.field); }

std::string type_name(const Key& key) {
  if (key.size) return "SIZE";
  return std::visit(
      [](const auto& r) -> std::string {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, Ref<double>>) return "NUM";
        if constexpr (std::is_same_v<R, Ref<bool>>) return "BOOL";
        if constexpr (std::is_same_v<R, Ref<std::string>>) return "TEXT";
        if constexpr (std::is_same_v<R, Ref<std::vector<unsigned>>>) return "KIB,...|none";
        if constexpr (std::is_same_v<R, Ref<SchedulerPolicy>>) return names_of(kSchedulerPolicies, "|");
        if constexpr (std::is_same_v<R, Ref<WritePolicy>>) return names_of(kWritePolicies, "|");
        return "UINT";
      },
      key.field);
}

bool is_list(const Key& key) { return std::holds_alternative<Ref<std::vector<unsigned>>>(key.field); }

}  // namespace sasskit::gpu_keys
