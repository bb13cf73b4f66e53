#include "libcommon/accelsim_config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "libcommon/diag.hpp"

namespace sasskit {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(trim(item));
  return out;
}

// A whole number that fits the 32-bit fields of the model (every
// Accel-Sim count, size in KiB or latency does); more is refused, not cut.
bool to_number(const std::string& s, uint64_t& out) {
  // Accel-Sim writes some integers as "1132.0"; accept a zero fraction.
  std::string digits = s.substr(0, s.find('.'));
  if (digits.size() != s.size() && s.find_first_not_of('0', digits.size() + 1) != std::string::npos)
    return false;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty() &&
         out <= std::numeric_limits<uint32_t>::max();
}

}  // namespace

void AccelSimOptions::read_file(const std::string& path) {
  // Opening a FIFO would wait for a writer forever, a device read without end.
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (!ec && type != std::filesystem::file_type::regular)
    fail_input(path, "an Accel-Sim config must be a regular file");
  std::ifstream in(path);
  if (!in) fail_io(path, "cannot open Accel-Sim config");
  read(in, path);
}

void AccelSimOptions::read(std::istream& in, const std::string& path) {
  files_ += (files_.empty() ? "" : " or ") + path;
  uint64_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    line = trim(line.substr(0, line.find('#')));
    // Continuation lines of a quoted multi-line value do not start with '-'.
    if (line.size() < 2 || line[0] != '-') continue;
    const auto space = line.find_first_of(" \t");
    const std::string name = line.substr(1, space == std::string::npos ? std::string::npos : space - 1);
    const std::string text = space == std::string::npos ? "" : trim(line.substr(space));
    values_[name] = {text, location(path, line_no)};
  }
  if (in.bad()) fail_io(path, "read error");
}

const AccelSimOptions::Value& AccelSimOptions::value(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) fail_input(files_, "missing option -" + name);
  return it->second;
}

const std::string& AccelSimOptions::text(const std::string& name) const { return value(name).text; }

void AccelSimOptions::bad(const std::string& name, const std::string& expected) const {
  const Value& v = value(name);
  fail_input(v.where, "-" + name + ": expected " + expected + ", got '" + v.text + "'");
}

uint64_t AccelSimOptions::number(const std::string& name) const {
  uint64_t out = 0;
  if (!to_number(value(name).text, out)) bad(name, "a whole number");
  return out;
}

std::vector<std::string> AccelSimOptions::fields(const std::string& name, char sep) const {
  return split(value(name).text, sep);
}

uint64_t AccelSimOptions::field_number(const std::string& name, char sep, size_t index) const {
  const Value& v = value(name);
  const auto f = split(v.text, sep);
  uint64_t out = 0;
  if (index >= f.size() || !to_number(f[index], out)) {
    fail_input(v.where, "-" + name + ": expected a number in field " + std::to_string(index + 1) + " of '" +
                            v.text + "'");
  }
  return out;
}

double AccelSimOptions::field_real(const std::string& name, char sep, size_t index) const {
  const Value& v = value(name);
  const auto f = split(v.text, sep);
  char* end = nullptr;
  const double out = index < f.size() ? std::strtod(f[index].c_str(), &end) : 0;
  if (index >= f.size() || f[index].empty() || *end != '\0' || !(out > 0) || !std::isfinite(out)) {
    fail_input(v.where, "-" + name + ": expected a positive number in field " + std::to_string(index + 1) +
                            " of '" + v.text + "'");
  }
  return out;
}

namespace {

// A clock of -gpgpu_clock_domains (core:interconnect:L2:DRAM, MHz), within
// the range the GPU model takes (sasskit-config(5)), so that an absurd one is
// reported here, at its line, not as a derived bandwidth.
double clock_domain(const AccelSimOptions& o, size_t index) {
  const double mhz = o.field_real("gpgpu_clock_domains", ':', index);
  if (!(mhz >= 1 && mhz <= 1e5)) o.bad("gpgpu_clock_domains", "clocks from 1 to 100000 MHz");
  return mhz;
}

// "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32": sectored?, sets, line, ways;
// replacement, write policy, allocation, write-allocation, indexing; MSHRs.
CacheGeometry parse_cache(const AccelSimOptions& o, const std::string& name, uint64_t copies) {
  CacheGeometry c;
  const auto parts = o.fields(name, ',');
  // An option given with no value has no fields at all.
  const auto geometry = parts.empty() ? std::vector<std::string>{} : split(parts[0], ':');
  uint64_t sets = 0, line = 0, ways = 0;
  if (geometry.size() < 4 || !to_number(geometry[1], sets) || !to_number(geometry[2], line) ||
      !to_number(geometry[3], ways)) {
    o.bad(name, "a cache description <N|S>:sets:line:ways,...");
  }
  // Each at least 1 (a line of 0 bytes divides by zero) and small enough
  // that the capacity cannot overflow.
  constexpr uint64_t kMaxPart = uint64_t(1) << 20;
  for (uint64_t part : {sets, line, ways})
    if (part < 1 || part > kMaxPart) o.bad(name, "sets, line size and ways from 1 to 1048576");
  c.line_bytes = static_cast<unsigned>(line);
  c.assoc = static_cast<unsigned>(ways);
  if (__builtin_mul_overflow(sets * line * ways, copies, &c.size_bytes))
    o.bad(name, "a cache whose total size fits in 64 bits");
  // gpgpu-sim's sectored caches use 32-byte sectors (SECTOR_SIZE).
  c.sector_bytes = geometry[0] == "S" ? 32 : c.line_bytes;
  if (parts.size() > 1) {
    const auto policy = split(parts[1], ':');
    if (policy.size() > 1)
      c.write_policy = policy[1] == "B" ? WritePolicy::WriteBack : WritePolicy::WriteThrough;
    if (policy.size() > 3) c.write_allocate = policy[3] != "N";
  }
  if (parts.size() > 2) {
    const auto mshr = split(parts[2], ':');
    uint64_t entries = 0;
    if (mshr.size() > 1 && to_number(mshr[1], entries)) c.mshrs = static_cast<unsigned>(entries);
  }
  return c;
}

unsigned per_subcore(uint64_t per_sm, unsigned subcores) {
  return static_cast<unsigned>(std::max<uint64_t>(1, per_sm / subcores));
}

// "-trace_opcode_latency_initiation_sp 2,1" -> latency 2, interval 1.
void set_timing(const AccelSimOptions& o, const std::string& name, ExecUnit& unit) {
  unit.latency = static_cast<unsigned>(o.field_number(name, ',', 0));
  unit.initiation_interval = static_cast<unsigned>(o.field_number(name, ',', 1));
}

// "-specialized_unit_N enabled,units,max_latency,...,NAME": the enabled one
// called `unit_name`, if any, gives count and timing.
bool set_specialized(const AccelSimOptions& o, const std::string& unit_name, unsigned subcores,
                     ExecUnit& unit) {
  for (int n = 1; n <= 8; ++n) {  // gpgpu-sim has 8 specialized-unit slots
    const std::string name = "specialized_unit_" + std::to_string(n);
    if (!o.has(name)) continue;
    const auto f = o.fields(name, ',');
    if (f.size() < 6 || f[5] != unit_name || f[0] != "1") continue;
    unit.count = per_subcore(o.field_number(name, ',', 1), subcores);
    set_timing(o, "trace_opcode_latency_initiation_spec_op_" + std::to_string(n), unit);
    return true;
  }
  return false;
}

void import_units(const AccelSimOptions& o, GpuConfig& g) {
  const unsigned sub = g.subcores_per_sm;
  const std::pair<UnitClass, const char*> generic[] = {{UnitClass::Int, "int"},
                                                       {UnitClass::Sp, "sp"},
                                                       {UnitClass::Dp, "dp"},
                                                       {UnitClass::Sfu, "sfu"},
                                                       {UnitClass::Tensor, "tensor"}};
  for (const auto& [cls, suffix] : generic) {
    ExecUnit& unit = g.units[static_cast<size_t>(cls)];
    const std::string count = cls == UnitClass::Tensor ? "gpgpu_num_tensor_core_units"
                                                       : std::string("gpgpu_num_") + suffix + "_units";
    unit.count = per_subcore(o.number_or(count, sub), sub);
    set_timing(o, std::string("trace_opcode_latency_initiation_") + suffix, unit);
  }
  set_specialized(o, "TENSOR", sub, g.units[static_cast<size_t>(UnitClass::Tensor)]);
  // Without a BRA unit Accel-Sim runs branches on the INT pipeline.
  ExecUnit& branch = g.units[static_cast<size_t>(UnitClass::Branch)];
  if (!set_specialized(o, "BRA", sub, branch)) branch = g.unit(UnitClass::Int);
  // Accel-Sim's LD/ST unit is one per SM with no fixed pipeline latency of its own.
  g.units[static_cast<size_t>(UnitClass::Ldst)] = ExecUnit{1, 1, 1};
}

void import_memory(const AccelSimOptions& o, GpuConfig& g) {
  const uint64_t l2_banks = o.number("gpgpu_n_mem") * o.number_or("gpgpu_n_sub_partition_per_mchannel", 1);
  if (l2_banks > std::numeric_limits<uint32_t>::max())
    o.bad("gpgpu_n_sub_partition_per_mchannel", "fewer L2 sub-partitions in all (gpgpu_n_mem x this)");
  g.unified_l1_smem_bytes = o.number_or("gpgpu_unified_l1d_size", 0) * 1024;
  g.l1d = parse_cache(o, "gpgpu_cache:dl1", 1);
  if (o.number_or("gpgpu_adaptive_cache_config", 0) != 0 && g.unified_l1_smem_bytes > g.smem_per_sm) {
    // Accel-Sim resizes L1 to what shared memory leaves, keeping the sets.
    const uint64_t sets = g.l1d.sets();
    g.l1d.size_bytes = g.unified_l1_smem_bytes - g.smem_per_sm;
    g.l1d.assoc = static_cast<unsigned>(g.l1d.size_bytes / (sets * g.l1d.line_bytes));
  }
  g.l1d.latency = static_cast<unsigned>(o.number("gpgpu_l1_latency"));
  g.l1_caches_global_loads = o.number_or("gpgpu_gmem_skip_L1D", 0) == 0;
  g.smem_banks = static_cast<unsigned>(o.number_or("gpgpu_shmem_num_banks", 32));
  g.smem_latency = static_cast<unsigned>(o.number("gpgpu_smem_latency"));
  g.l2 = parse_cache(o, "gpgpu_cache:dl2", l2_banks);
  // The ROP latency starts where the L1 miss leaves; our L2 latency is load-to-use.
  g.l2.latency = static_cast<unsigned>(o.number("gpgpu_l2_rop_latency")) + g.l1d.latency;
  g.l2_slices = static_cast<unsigned>(l2_banks);
  g.dram_latency = static_cast<unsigned>(o.number("dram_latency"));
  const double dram_mhz = clock_domain(o, 3);
  g.dram_bandwidth_gbs = double(o.number("gpgpu_n_mem")) * o.number_or("gpgpu_n_mem_per_ctrlr", 1) *
                         o.number("gpgpu_dram_buswidth") * o.number_or("dram_data_command_freq_ratio", 1) *
                         dram_mhz / 1000.0;
  // One flit per cycle per L2 sub-partition port, at the interconnect clock.
  const double icnt_ratio = clock_domain(o, 1) / g.clock_mhz;
  g.noc_bytes_per_cycle = double(l2_banks) * o.number_or("icnt_flit_size", 32) * icnt_ratio;
  // An SM's port sends one flit a cycle, and the sectored L1 sends each
  // missing sector as its own packet: at most a sector's data per flit.
  const unsigned sector = g.l1d.sector_bytes ? g.l1d.sector_bytes : g.l1d.line_bytes;
  g.noc_port_bytes_per_cycle = std::min<double>(o.number_or("icnt_flit_size", 32), sector) * icnt_ratio;
  g.kernel_launch_latency = static_cast<unsigned>(o.number_or("gpgpu_kernel_launch_latency", 0));
  // Older configs spell it TB, HyFiSS's thread_block.
  g.cta_launch_latency = static_cast<unsigned>(
      o.number_or("gpgpu_TB_launch_latency", o.number_or("gpgpu_thread_block_launch_latency", 0)));
  g.max_concurrent_kernels = static_cast<unsigned>(o.number_or("gpgpu_max_concurrent_kernel", 0));
}

}  // namespace

GpuConfig import_accelsim(const AccelSimOptions& o, const std::string& name) {
  GpuConfig g;
  g.name = name;
  g.clock_mhz = clock_domain(o, 0);
  const uint64_t sms = o.number("gpgpu_n_clusters") * o.number("gpgpu_n_cores_per_cluster");
  if (sms > std::numeric_limits<uint32_t>::max()) o.bad("gpgpu_n_cores_per_cluster", "fewer SMs in all");
  g.num_sms = static_cast<unsigned>(sms);
  // issue_block2core: each core cluster takes at most one CTA per core cycle.
  g.cta_dispatch_rate = o.number("gpgpu_n_clusters");
  g.subcores_per_sm = static_cast<unsigned>(o.number_or("gpgpu_num_sched_per_core", 1));
  if (g.subcores_per_sm == 0) o.bad("gpgpu_num_sched_per_core", "at least one scheduler");
  g.max_threads_per_sm = static_cast<unsigned>(o.field_number("gpgpu_shader_core_pipeline", ':', 0));
  g.warp_size = static_cast<unsigned>(o.field_number("gpgpu_shader_core_pipeline", ':', 1));
  g.max_warps_per_sm = g.warp_size ? g.max_threads_per_sm / g.warp_size : 0;
  g.max_ctas_per_sm = static_cast<unsigned>(o.number("gpgpu_shader_cta"));
  g.regs_per_sm = static_cast<unsigned>(o.number("gpgpu_shader_registers"));
  g.smem_per_sm = o.number("gpgpu_shmem_size");
  g.smem_per_cta = o.number_or("gpgpu_shmem_per_block", g.smem_per_sm);
  if (o.has("gpgpu_shmem_option")) {
    for (size_t i = 0; i < o.fields("gpgpu_shmem_option", ',').size(); ++i) {
      g.smem_carveouts_kb.push_back(static_cast<unsigned>(o.field_number("gpgpu_shmem_option", ',', i)));
    }
  }
  const std::string scheduler = o.has("gpgpu_scheduler") ? o.text("gpgpu_scheduler") : "gto";
  g.scheduler = scheduler == "lrr" ? SchedulerPolicy::Lrr : SchedulerPolicy::Gto;
  if (scheduler != "lrr" && scheduler != "gto")
    warn("", "Accel-Sim scheduler '" + scheduler + "' imported as gto");
  // With the sub-core model Accel-Sim splits collector units and banks among schedulers.
  const bool sub_core = o.number_or("gpgpu_sub_core_model", 0) != 0;
  const unsigned split_by = sub_core ? g.subcores_per_sm : 1;
  g.collector_units = per_subcore(o.number_or("gpgpu_operand_collector_num_units_gen", 2), split_by);
  g.reg_banks = per_subcore(o.number_or("gpgpu_num_reg_banks", 2), split_by);
  g.reg_ports_per_bank = static_cast<unsigned>(o.number_or("gpgpu_reg_file_port_throughput", 1));
  g.has_l0i = false;  // Accel-Sim models one instruction cache per SM
  g.l0i = CacheGeometry{};
  if (o.has("gpgpu_cache:il1")) g.l1i = parse_cache(o, "gpgpu_cache:il1", 1);
  import_units(o, g);
  import_memory(o, g);
  return g;
}

GpuConfig import_accelsim(const std::string& dir) {
  AccelSimOptions options;
  options.read_file(dir + "/gpgpusim.config");
  options.read_file(dir + "/trace.config");
  std::string name = std::filesystem::path(dir).lexically_normal().filename().string();
  if (name.empty()) name = std::filesystem::path(dir).lexically_normal().parent_path().filename().string();
  if (name.rfind("SM", 0) == 0 && name.find('_') != std::string::npos) name = name.substr(name.find('_') + 1);
  return import_accelsim(options, name);
}

}  // namespace sasskit
