// nsys stats CSV reports (formats/PROFILES.md, "nsys"). Column names as in
// the Nsight Systems User Guide, "Report Scripts": cuda_gpu_trace ("Duration
// (ns)", "GrdX".."BlkZ", "Name"; releases before 2021.5 print "Duration",
// also in ns), cuda_kern_exec_trace ("Kernel Dur (ns)", "GridXYZ",
// "BlockXYZ", "Kernel Name") and cuda_gpu_kern_sum ("Total Time (ns)",
// "Instances", "Name"). cuda_gpu_trace also lists memory copies and sets:
// rows without grid dimensions are not kernels.
#include <sstream>

#include "formats/profile_table.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::profile {

namespace {

// Product of "x y z" in one field (cuda_kern_exec_trace).
uint64_t volume_xyz(const Table& t, const Row& r, int column) {
  if (column < 0) return 0;
  std::istringstream in(r.fields[column]);
  std::string word;
  uint64_t v = 1;
  int n = 0;
  while (in >> word) v *= count_at(t.file, r.line, t.header[column], word), ++n;
  if (n != 3) fail_input(t.file, r.line, bounded_input(t.header[column]) + " " + quoted_input(r.fields[column]) + " is not 'x y z'");
  return v;
}

// Product of three columns (cuda_gpu_trace); empty for a memory activity.
std::optional<uint64_t> volume_columns(const Table& t, const Row& r, const char* const (&names)[3]) {
  uint64_t v = 1;
  for (const char* n : names) {
    const int c = t.column(n);
    if (c < 0) return 0;
    if (r.fields[c].empty()) return std::nullopt;
    v *= count_at(t.file, r.line, n, r.fields[c]);
  }
  return v;
}

}  // namespace

void read_nsys_trace(Table& t, Profile& p) {
  const bool exec = p.layout == Layout::NsysKernExec;
  const int name = exec ? t.need("Kernel Name") : t.need("Name");
  const int duration = exec ? t.need("Kernel Dur (ns)") : t.first_column({"Duration (ns)", "Duration"});
  p.time_from = t.header[duration];
  uint64_t order = 0;
  for (const Row& r : t.rows) {
    Kernel k = p.new_kernel();
    if (exec) {
      k.ctas = volume_xyz(t, r, t.column("GridXYZ"));
      k.threads_per_cta = volume_xyz(t, r, t.column("BlockXYZ"));
    } else {
      auto ctas = volume_columns(t, r, {"GrdX", "GrdY", "GrdZ"});
      if (!ctas) continue;  // a memory copy or set
      k.ctas = *ctas;
      k.threads_per_cta = volume_columns(t, r, {"BlkX", "BlkY", "BlkZ"}).value_or(0);
    }
    k.line = r.line;
    k.id = ++order;
    k.name = r.fields[name];
    k.time_ns = time_in_ns(t, r.line, t.header[duration], "ns", r.fields[duration]);
    t.keep_values(r, k);
    p.kernels.push_back(std::move(k));
  }
}

void read_nsys_kern_sum(Table& t, Profile& p) {
  const int name = t.need("Name"), total = t.need("Total Time (ns)"), instances = t.need("Instances");
  p.time_from = "Total Time (ns)";
  for (const Row& r : t.rows) {
    Kernel k = p.new_kernel();
    k.line = r.line;
    k.name = r.fields[name];
    k.launches = count_at(t.file, r.line, "Instances", r.fields[instances]);
    k.time_ns = time_in_ns(t, r.line, "Total Time (ns)", "ns", r.fields[total]);
    t.keep_values(r, k);
    p.kernels.push_back(std::move(k));
  }
}

}  // namespace sasskit::profile
