// nsys stats CSV: cuda_kern_exec_trace ("Kernel Dur (ns)", "GridXYZ",
// "BlockXYZ", "Kernel Name") and cuda_gpu_trace ("Duration (ns)", "GrdX" ..
// "BlkZ", "Name"; older releases print "Duration"). Column names as in the
// Nsight Systems User Guide, "Report Scripts" (cuda_gpu_trace,
// cuda_kern_exec_trace). cuda_gpu_trace also lists memory copies and sets:
// rows without grid dimensions are skipped.
#include <sstream>

#include "libcommon/diag.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

struct NsysColumns {
  int duration = -1, name = -1;
  int grid_xyz = -1, block_xyz = -1;  // kern_exec: "x y z" in one field
  int grid[3] = {-1, -1, -1}, block[3] = {-1, -1, -1};
};

NsysColumns nsys_columns(const std::vector<std::string>& h) {
  NsysColumns c;
  if ((c.duration = CsvInput::find(h, "Kernel Dur (ns)")) >= 0) {
    c.name = CsvInput::find(h, "Kernel Name");
    c.grid_xyz = CsvInput::find(h, "GridXYZ");
    c.block_xyz = CsvInput::find(h, "BlockXYZ");
    return c;
  }
  c.duration = CsvInput::find(h, "Duration (ns)");
  if (c.duration < 0) c.duration = CsvInput::find(h, "Duration");
  c.name = CsvInput::find(h, "Name");
  const char* g[3] = {"GrdX", "GrdY", "GrdZ"};
  const char* b[3] = {"BlkX", "BlkY", "BlkZ"};
  for (int i = 0; i < 3; ++i) {
    c.grid[i] = CsvInput::find(h, g[i]);
    c.block[i] = CsvInput::find(h, b[i]);
  }
  return c;
}

const std::string& field(const CsvInput& csv, int column) {
  if (column >= static_cast<int>(csv.fields().size()))
    fail_input(csv.name(), csv.line(), "expected at least " + std::to_string(column + 1) +
                                           " fields, found " + std::to_string(csv.fields().size()));
  return csv.fields()[column];
}

// Product of "x y z" (kern_exec) or of three columns (gpu_trace); 0 when absent.
uint64_t volume_xyz(const CsvInput& csv, int column, const std::string& what) {
  std::istringstream in(field(csv, column));
  uint64_t v = 1, d = 0;
  int n = 0;
  while (in >> d) v *= d, ++n;
  if (n != 3) fail_input(csv.where(), what + " '" + field(csv, column) + "' is not 'x y z'");
  return v;
}

uint64_t volume_columns(const CsvInput& csv, const int (&columns)[3], const std::string& what) {
  uint64_t v = 1;
  for (int c : columns) {
    if (field(csv, c).empty()) return 0;
    v *= static_cast<uint64_t>(csv.number(field(csv, c), what));
  }
  return v;
}

}  // namespace

bool is_nsys_header(const std::vector<std::string>& h) {
  NsysColumns c = nsys_columns(h);
  return c.duration >= 0 && c.name >= 0;
}

void read_nsys(CsvInput& csv, const std::vector<std::string>& header, Profile& p) {
  const NsysColumns c = nsys_columns(header);
  const bool has_xyz = c.grid_xyz >= 0 && c.block_xyz >= 0;
  const bool has_columns = c.grid[0] >= 0 && c.grid[1] >= 0 && c.grid[2] >= 0 &&
                           c.block[0] >= 0 && c.block[1] >= 0 && c.block[2] >= 0;
  const std::string duration_name = header[c.duration];
  while (csv.next()) {
    const std::string& name = field(csv, c.name);
    uint64_t ctas = 0, threads = 0;
    if (has_xyz) {
      ctas = volume_xyz(csv, c.grid_xyz, "GridXYZ");
      threads = volume_xyz(csv, c.block_xyz, "BlockXYZ");
    } else if (has_columns) {
      ctas = volume_columns(csv, c.grid, "grid dimension");
      threads = volume_columns(csv, c.block, "block dimension");
      if (ctas == 0) continue;  // a memory copy or set, not a kernel
    } else if (name.starts_with("[CUDA ")) {
      continue;
    }
    p.add(p.size() + 1, name, csv.number(field(csv, c.duration), duration_name));
    if (has_xyz || has_columns) {
      p.ctas.push_back(ctas);
      p.warps.push_back(ctas * ((threads + 31) / 32));
    }
  }
}

}  // namespace sasskit::kselect
