// Profiler and simulator exports read into one per-kernel table: Nsight
// Compute CSV (raw and details pages), nvprof CSV (GPU trace and metric or
// event summaries), nsys stats CSV reports and the nsys sqlite export,
// Accel-Sim statistics, and two hand-made CSV layouts. The layout is
// recognised from the content; formats/PROFILES.md describes each one.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sasskit::profile {

enum class Layout : uint8_t {
  NcuRaw,         // ncu --csv --page raw
  NcuDetails,     // ncu --csv (--page details, the default)
  NvprofTrace,    // nvprof --csv --print-gpu-trace [--metrics ...]
  NvprofSummary,  // nvprof --csv --metrics/--events (one row per kernel name)
  NsysGpuTrace,   // nsys stats -r cuda_gpu_trace
  NsysKernExec,   // nsys stats -r cuda_kern_exec_trace
  NsysKernSum,    // nsys stats -r cuda_gpu_kern_sum
  NsysSqlite,     // nsys export --type sqlite
  AccelsimLog,    // Accel-Sim (gpgpu-sim) simulator stdout
  AccelsimCsv,    // kernel,kernel_id,stat,value
  AccelsimStats,  // Accel-Sim's util/job_launching/get_stats.py CSV
  Plain,          // id and/or name column, then named numeric columns
  Wide,           // one column per kernel name, durations (ns) down it
};
const char* layout_name(Layout layout);  // "ncu-raw", "nvprof-trace", ...

// Column (or metric, or statistic) names shared by the kernels of a profile.
class ColumnNames {
 public:
  uint32_t id(std::string_view name);  // added when new
  std::optional<uint32_t> find(std::string_view name) const;
  const std::string& name(uint32_t id) const { return names_[id]; }
  uint32_t size() const { return static_cast<uint32_t>(names_.size()); }

 private:
  std::vector<std::string> names_;
  std::map<std::string, uint32_t, std::less<>> ids_;
};

// A kernel's values by name, as written, packed into one string of
// entries (name id, length, text): an ncu raw page has hundreds per launch,
// and a map per launch would take 30 times the file's size.
class Values {
 public:
  Values() = default;
  explicit Values(std::shared_ptr<ColumnNames> names) : names_(std::move(names)) {}
  ColumnNames* names() const { return names_.get(); }
  // Sets `name` to `text`; a later value of the same name wins.
  void set(std::string_view name, std::string_view text);
  // The same, by an id of the shared column names.
  void set(uint32_t id, std::string_view text);
  std::optional<std::string_view> get(std::string_view name) const;
  bool contains(std::string_view name) const { return get(name).has_value(); }
  bool empty() const { return packed_.empty(); }
  // (name, text) in the order set.
  std::vector<std::pair<std::string_view, std::string_view>> items() const;

 private:
  // Calls body(name id, text) for each entry in the order set.
  template <class F>
  void each(F&& body) const;
  std::shared_ptr<ColumnNames> names_;
  std::string packed_;
};

// One kernel launch, or for the summary layouts one kernel name over all
// of its launches.
// The name under which an Accel-Sim log's kernels carry the L2
// configuration the log echoes (its -gpgpu_cache:dl2 value, "S:32:128:24,...").
inline constexpr std::string_view kAccelsimL2Config = "-gpgpu_cache:dl2";

struct Kernel {
  uint64_t line = 0;             // line of the file it came from (0: sqlite)
  std::optional<uint64_t> id;    // 1-based launch number when the file numbers launches
  std::string name;              // as the file writes it
  uint64_t launches = 1;         // > 1 only in summaries
  std::optional<double> time_ns; // kernel time, summed over `launches`
  std::optional<double> cycles;  // elapsed GPU cycles, summed over `launches`
  uint64_t ctas = 0;             // thread blocks in the grid; 0 when unknown
  uint64_t threads_per_cta = 0;  // 0 when unknown
  // Every other value by its column or metric name, as written.
  Values values;
  // The unit of a value, where the file gives one and a reader of the
  // values needs it (ncu: its duration and byte metrics, which ncu scales).
  Values units;
};

struct Profile {
  std::string source;        // file name, for messages
  Layout layout = Layout::Plain;
  std::string time_from;     // column or metric the times came from ("" when none)
  std::string cycles_from;   // likewise for cycles
  std::vector<Kernel> kernels;
  std::shared_ptr<ColumnNames> columns = std::make_shared<ColumnNames>();

  // A kernel whose values share this profile's column names.
  Kernel new_kernel() const;
  uint64_t launch_count() const;
  double total_time_ns() const;  // 0 when the file has no times
};

struct ReadOptions {
  // get_stats.py CSV: the config (column, or row with -R) to read; may be
  // empty when the file holds one. Usage error for any other layout.
  std::string config;
};

// Reads a text export. An unknown layout, a duration in an unexpected unit
// or text where a number belongs is BadInput naming the file and line.
Profile read_profile(std::istream& in, const std::string& name, const ReadOptions& options = {});

// True when `path` is a regular file that starts with the SQLite header.
bool is_sqlite_file(const std::string& path);
// Reads the kernel activity table of an `nsys export --type sqlite` file.
Profile read_nsys_sqlite(const std::string& path);
// Either of the above, by content ("-" is stdin, text only).
Profile load_profile(const std::string& path, const ReadOptions& options = {});

// A number as profilers print it: "1,234.5", "96.4%", " 7 ". Empty when the
// text is not a finite number.
std::optional<double> parse_number(std::string_view text);
// The parsed value of `text` or BadInput "file:line: what 'text' is not a number".
double number_at(const std::string& file, uint64_t line, std::string_view what, std::string_view text);
// A count (id, launches, grid size): a whole number in [0, 2^53].
uint64_t count_at(const std::string& file, uint64_t line, std::string_view what, std::string_view text);

// `s` in lower case without spaces, as hand-made column names are compared.
std::string lower_trimmed(std::string_view s);

// Nanoseconds per unit for the time units profilers print ("ns", "usecond",
// "ms", "s", ...); empty for any other unit.
std::optional<double> ns_per_unit(std::string_view unit);

}  // namespace sasskit::profile
