// Internal to the profile readers: a CSV export cut out of the text around
// it, with its header, optional units row and data rows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/profile.hpp"

namespace sasskit::profile {

struct Row {
  uint64_t line = 0;
  std::vector<std::string> fields;
};

struct Table {
  std::string file;
  uint64_t header_line = 0;
  std::vector<std::string> header;
  std::vector<Row> rows;  // every content line after the header, the units row included

  // Column index of `name`, or -1.
  int column(std::string_view name) const;
  // Column index of the first of `names` present, or -1.
  int first_column(std::initializer_list<std::string_view> names) const;
  // Like column() but BadInput at the header line when it is missing.
  int need(std::string_view name) const;
  // Removes and returns the units row when rows.front() has an empty or
  // non-numeric field in column `probe` (profilers put units under the header).
  std::vector<std::string> take_units_row(int probe);
  // Fills kernel.values with every field not in `used`.
  void keep_values(const Row& row, Kernel& kernel) const;
};

// The layouts, given the table (units row still in place).
void read_ncu_raw(Table& t, Profile& p);
void read_ncu_details(Table& t, Profile& p);
void read_nvprof_trace(Table& t, Profile& p);
void read_nvprof_summary(Table& t, Profile& p);
void read_nsys_trace(Table& t, Profile& p);
void read_nsys_kern_sum(Table& t, Profile& p);
void read_accelsim_csv(Table& t, Profile& p);
void read_plain(Table& t, Profile& p);
void read_wide(Table& t, Profile& p);
// Accel-Sim's stdout is not CSV: it is read line by line.
void read_accelsim_log(const std::vector<std::string>& lines, Profile& p);

// A time value in `unit` as ns, or BadInput naming the column and unit.
double time_in_ns(const Table& t, uint64_t line, const std::string& column, std::string_view unit,
                  std::string_view text);

}  // namespace sasskit::profile
