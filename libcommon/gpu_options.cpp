#include "libcommon/gpu_options.hpp"

#include <cctype>
#include <cstdio>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iterator>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <variant>

#include <sys/stat.h>

#include "libcommon/accelsim_config.hpp"
#include "libcommon/diag.hpp"
#include "version.hpp"

namespace sasskit {

namespace {

template <class T>
using Ref = std::function<T&(GpuConfig&)>;
using Field = std::variant<Ref<unsigned>, Ref<uint64_t>, Ref<double>, Ref<bool>, Ref<std::string>,
                           Ref<SchedulerPolicy>, Ref<WritePolicy>, Ref<std::vector<unsigned>>>;

struct Key {
  std::string name;
  std::string help;
  Field field;
  bool size = false;  // a byte count that accepts KiB/MiB/GiB suffixes
};

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
  keys.push_back({p + "-write-policy", what + " write policy: write-through or write-back",
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
      {"scheduler", "warp scheduler policy: gto, lrr or two-level", member(&G::scheduler)},
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

[[noreturn]] void bad_value(const Key& key, std::string_view value, const std::string& expected) {
  fail_usage(key.name + ": expected " + expected + ", got '" + std::string(value) + "'");
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

uint64_t parse_count(const Key& key, std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view unit(end, text.data() + text.size() - end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  const std::string expected = key.size ? "a size (bytes, or with a KiB/MiB/GiB suffix)" : "a whole number";
  if (ec != std::errc() || end == text.data()) bad_value(key, text, expected);
  if (unit.empty()) return value;
  if (!key.size) bad_value(key, text, expected);
  const std::string u = lower(unit);
  uint64_t factor = 0;
  if (u == "b") factor = 1;
  if (u == "k" || u == "kb" || u == "kib") factor = 1ull << 10;
  if (u == "m" || u == "mb" || u == "mib") factor = 1ull << 20;
  if (u == "g" || u == "gb" || u == "gib") factor = 1ull << 30;
  if (factor == 0) bad_value(key, text, expected);
  if (value > UINT64_MAX / factor) bad_value(key, text, "a size below 2^64 bytes");
  return value * factor;
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
    if (!scheduler_from_name(text, r(gpu))) bad_value(key, text, "gto, lrr or two-level");
  }
  void operator()(const Ref<WritePolicy>& r) const {
    const std::string t = lower(text);
    if (t != "write-through" && t != "write-back") bad_value(key, text, "write-through or write-back");
    r(gpu) = t == "write-back" ? WritePolicy::WriteBack : WritePolicy::WriteThrough;
  }
  GpuConfig& gpu;
};

std::string format_size(uint64_t bytes) {
  if (bytes != 0 && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes != 0 && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes);
}

std::string format_real(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

struct Formatter {
  const Key& key;
  GpuConfig& gpu;
  std::string operator()(const Ref<unsigned>& r) const {
    return key.size ? format_size(r(gpu)) : std::to_string(r(gpu));
  }
  std::string operator()(const Ref<uint64_t>& r) const {
    return key.size ? format_size(r(gpu)) : std::to_string(r(gpu));
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
    return r(gpu) == WritePolicy::WriteBack ? "write-back" : "write-through";
  }
};

std::string type_name(const Key& key) {
  if (key.size) return "SIZE";
  return std::visit(
      [](const auto& r) -> std::string {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, Ref<double>>) return "NUM";
        if constexpr (std::is_same_v<R, Ref<bool>>) return "BOOL";
        if constexpr (std::is_same_v<R, Ref<std::string>>) return "TEXT";
        if constexpr (std::is_same_v<R, Ref<std::vector<unsigned>>>) return "KIB,...|none";
        if constexpr (std::is_same_v<R, Ref<SchedulerPolicy>>) return "gto|lrr|two-level";
        if constexpr (std::is_same_v<R, Ref<WritePolicy>>) return "write-through|write-back";
        return "UINT";
      },
      key.field);
}

bool is_list(const Key& key) { return std::holds_alternative<Ref<std::vector<unsigned>>>(key.field); }

// The tool reads GPU models: a bare --config name is a bundled model, never
// a file of the working folder (set by GpuOptions, read when --config is).
bool g_reads_models = false;
std::string g_model_path;  // the model file --config resolved to, for messages
std::string g_model_folder_warning;  // given once quiet() is known, by config()

// The first line of `text` that sets `name` ("name = ..." or "name: "), or
// with an empty `name` the first [section] header; counted from 1, 0 when
// there is none.
size_t line_of(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  size_t n = 0;
  for (std::string line; std::getline(lines, line);) {
    ++n;
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    if (name.empty()) {
      if (line[start] == '[') return n;
      continue;
    }
    if (line.compare(start, name.size(), name) != 0) continue;
    const size_t after = line.find_first_not_of(" \t", start + name.size());
    if (after != std::string::npos && (line[after] == '=' || line[after] == ':')) return n;
  }
  return 0;
}

// A GPU model file is data: it sets model keys (sasskit-config(5)) and
// nothing else, so that a shared or planted model cannot redirect output,
// swap input or switch checks off. CLI11 would let it set any option.
// Of a key that takes one value, CLI11 would keep only the last part of an
// unquoted value with spaces or commas: such a line is refused too. (A key
// repeated on the command line still takes the last, as overrides expect.)
class ModelFileReader : public CLI::ConfigTOML {
 public:
  using Values = std::map<std::string, std::vector<std::string>>;
  // `read` gets the file's values, key -> the values it gives, once checked.
  explicit ModelFileReader(std::function<void(Values)> read) : read_(std::move(read)) {}

  // Hands CLI11 no items: GpuOptions::config() applies the file's values
  // itself, below the command line's. CLI11 would look each item up by
  // comparing it with every option (a copy of their names each time), most
  // of a tool's start-up.
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override {
    std::string text{std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
    std::istringstream in(text);
    Values values;
    for (const CLI::ConfigItem& item : CLI::ConfigTOML::from_config(in)) {
      const bool in_section = !item.parents.empty();
      // Found only for a message: a search of the text per item made reading a model quadratic.
      const auto at = [&] {
        return g_model_path + ":" + std::to_string(line_of(text, in_section ? "" : item.name)) + ": ";
      };
      if (in_section)
        throw CLI::ConfigError(at() + "a GPU model file has no [sections]; its keys stand at the top level");
      const Key* key = lookup_key(item.name);
      if (!key)
        throw CLI::ConfigError(at() + "'" + item.name +
                               "' is not a GPU model key (sasskit-config(5)); a model file sets model keys only");
      if (item.inputs.size() >= 2 && !is_list(*key))
        throw CLI::ConfigError(at() + key->name + " takes one value, the config file gives " +
                               std::to_string(item.inputs.size()) +
                               " (quote a text value that holds spaces or commas)");
      values.emplace(item.name, item.inputs);  // a key given twice: the first, as CLI11 took it
    }
    read_(std::move(values));
    return {};
  }

 private:
  std::function<void(Values)> read_;
};

// A model found in a folder that others may write to could have been planted.
void note_if_others_may_write(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    g_model_folder_warning = "the folder is writable by others, who may change its models";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::optional<ModelInUse> g_model_in_use;

// `without_command_line`: the model the command line's keys override.
void note_model_in_use(const GpuConfig& gpu, const std::vector<bool>& on_command_line,
                       GpuConfig without_command_line) {
  ModelInUse model{gpu.name, model_fingerprint(gpu), {}, {}};
  GpuConfig copy = gpu;
  for (size_t i = 0; i < keys().size(); ++i) {
    if (!on_command_line[i]) continue;
    const Key& key = keys()[i];
    const std::string value = std::visit(Formatter{key, copy}, key.field);
    model.keys_given[key.name] = value;
    if (value != std::visit(Formatter{key, without_command_line}, key.field)) model.keys_changed.push_back(key.name);
  }
  g_model_in_use = std::move(model);
}

}  // namespace

std::vector<std::string> gpu_config_keys() {
  std::vector<std::string> names;
  for (const Key& k : keys()) names.push_back(k.name);
  return names;
}

void set_gpu_config_value(GpuConfig& gpu, std::string_view key_name, std::string_view value) {
  const Key& key = find_key(key_name);
  std::visit(Setter{key, value, gpu}, key.field);
}

std::string dump_config(const GpuConfig& gpu) {
  GpuConfig copy = gpu;
  std::ostringstream out;
  out << "# GPU model " << gpu.name << ", as a sasskit config file (sasskit-config(5))\n";
  for (const Key& k : keys()) out << k.name << " = " << std::visit(Formatter{k, copy}, k.field) << "\n";
  return out.str();
}

GpuOptions::GpuOptions(CLI::App& app) : GpuOptions(app, nullptr) {}

GpuOptions::GpuOptions(ToolApp& tool) : GpuOptions(tool.app(), &tool.common().argv) {
  tool.before_listing_options([this] { add_key_options(); });
}

GpuOptions::GpuOptions(CLI::App& app, const std::vector<std::string>* command_line)
    : app_(app), options_(keys().size(), nullptr) {
  const std::string group = kGroup;
  g_reads_models = true;
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.config_formatter(
      std::make_shared<ModelFileReader>([this](ModelFileReader::Values values) { file_values_ = std::move(values); }));
  if (command_line) {
    for (const std::string& arg : *command_line) {
      if (!arg.starts_with("--")) continue;
      if (const Key* key = lookup_key(std::string_view(arg).substr(2, arg.find('=') - 2)))
        add_key_option(static_cast<size_t>(key - keys().data()));
    }
  } else {
    add_key_options();
  }
  app.add_option("--import-accelsim", import_dir_,
                 "Start from an Accel-Sim config: DIR/gpgpusim.config and DIR/trace.config")
      ->group(group)
      ->check(CLI::ExistingDirectory);
  app.add_flag("--dump-config", dump_, "Print the effective GPU model as a config file and exit")
      ->group(group);
  app.add_flag("--accept-other-gpu", accept_other_gpu_,
               "Use input records computed for another GPU model (refused by default)")
      ->group(group);
}

void GpuOptions::add_key_options() {
  for (size_t i = 0; i < keys().size(); ++i) add_key_option(i);
}

void GpuOptions::add_key_option(size_t i) {
  if (options_[i]) return;
  const Key& k = keys()[i];
  std::string help = k.help;
  help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  CLI::Option* opt = app_.add_option("--" + k.name)->description(help)->group(kGroup)->type_name(type_name(k));
  if (is_list(k)) {
    opt->expected(1, 64)->delimiter(',');
  } else {
    opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  options_[i] = opt;
}

const std::vector<std::string>* GpuOptions::file_values_of(size_t i) const {
  const auto in_file = file_values_.find(keys()[i].name);
  return in_file == file_values_.end() || in_file->second.empty() ? nullptr : &in_file->second;
}

GpuConfig GpuOptions::config() const {
  GpuConfig gpu = import_dir_.empty() ? GpuConfig{} : import_accelsim(import_dir_);
  const GpuConfig start = gpu;
  const std::vector<bool> on_command_line = keys_given();
  for (size_t i = 0; i < keys().size(); ++i)
    if (const auto* values = on_command_line[i] ? &options_[i]->results() : file_values_of(i)) set(gpu, i, *values);
  validate(gpu);
  note_model_in_use(gpu, on_command_line, without_command_line(start, on_command_line));
  if (!g_model_folder_warning.empty()) warn(g_model_path, g_model_folder_warning);
  if (dump_) {
    std::cout << dump_config(gpu) << std::flush;
    throw CLI::Success();
  }
  return gpu;
}

void GpuOptions::set(GpuConfig& gpu, size_t i, const std::vector<std::string>& values) {
  const Key& key = keys()[i];
  std::visit(Setter{key, is_list(key) ? join(values) : values.back(), gpu}, key.field);
}

GpuConfig GpuOptions::without_command_line(GpuConfig start, const std::vector<bool>& on_command_line) const {
  for (size_t i = 0; i < keys().size(); ++i) {
    const std::vector<std::string>* in_file = on_command_line[i] ? file_values_of(i) : nullptr;
    if (!in_file) continue;
    try {
      set(start, i, *in_file);
    } catch (const Error&) {
      // A value the command line overrode was never used: the key counts as changed.
    }
  }
  return start;
}

std::vector<bool> GpuOptions::keys_given() const {
  std::vector<bool> given;
  for (const CLI::Option* opt : options_) given.push_back(opt && opt->count() > 0);
  return given;
}

bool is_gpu_model_option(const std::string& name) {
  return name == "import-accelsim" || name == "dump-config" || lookup_key(name);
}

std::string model_fingerprint(const GpuConfig& gpu) {
  GpuConfig copy = gpu;
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const Key& k : keys()) {
    if (k.name == "name") continue;
    for (unsigned char c : k.name + " = " + std::visit(Formatter{k, copy}, k.field) + "\n")
      hash = (hash ^ c) * 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

const std::optional<ModelInUse>& model_in_use() { return g_model_in_use; }

bool is_hit_rate_key(const std::string& key) {
  static const std::set<std::string> hit_rate_keys = {"l1d-size",           "l1d-assoc", "l1d-write-policy",
                                                      "l1d-write-allocate", "l2-size",   "l2-assoc"};
  return hit_rate_keys.count(key) > 0;
}

void warn_hit_rate_keys_ignored(const std::string& why) {
  if (!g_model_in_use) return;
  std::string keys;
  for (const std::string& key : g_model_in_use->keys_changed)
    if (is_hit_rate_key(key)) keys += (keys.empty() ? "--" : ", --") + key;
  if (keys.empty()) return;
  warn("", keys + " changed nothing: " + why);
}

std::vector<std::string> config_search_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("SASSKIT_CONFIG_PATH")) {
    std::stringstream paths(env);
    for (std::string dir; std::getline(paths, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  if (auto bundled = bundled_config_dir()) dirs.push_back(*bundled);
  return dirs;
}

std::optional<std::string> bundled_config_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return (exe.parent_path() / SASSKIT_CONFIG_FROM_BIN).string();
}

std::string resolve_config_file(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name.find('/') != std::string::npos) return name;
  if (!g_reads_models && fs::is_regular_file(name, ec)) return name;  // a tool's options file
  for (const auto& dir : config_search_dirs()) {
    for (const auto& candidate : {dir + "/" + name, dir + "/" + name + ".cfg"}) {
      if (!fs::is_regular_file(candidate, ec)) continue;
      if (g_reads_models) note_if_others_may_write(dir);
      return candidate;
    }
  }
  return "";
}

CLI::Validator config_file_resolver() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::string path = resolve_config_file(value);
        if (path.empty()) {
          std::error_code ec;
          const std::string local = g_reads_models && std::filesystem::is_regular_file(value, ec)
                                        ? "; for the file in this folder write ./" + value
                                        : "";
          return "no file and no bundled GPU model named '" + value +
                 "' (bundled models are in " + bundled_config_dir().value_or("bin/" SASSKIT_CONFIG_FROM_BIN) +
                 "; set SASSKIT_CONFIG_PATH for more" + local + ")";
        }
        value = path;
        g_model_path = path;
        return "";
      },
      "");
}

}  // namespace sasskit
