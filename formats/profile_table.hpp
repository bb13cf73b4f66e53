// Internal to the profile readers: a CSV export cut out of the text around
// it, with its header, optional units row and data rows.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/profile.hpp"

namespace sasskit::profile {

struct Row {
  uint64_t line = 0;
  std::vector<std::string> fields;
};

struct Table;

// The data lines of a table, split into fields one at a time as they are
// visited (a table held split would take many times the file's size). The
// lines are the reader's: a view of them, never a copy.
class Rows {
 public:
  struct Line {
    uint64_t number;
    std::string_view text;
  };
  class iterator {
   public:
    iterator(const Rows* rows, size_t i) : rows_(rows), i_(i) {}
    const Row& operator*();
    iterator& operator++() { return ++i_, *this; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const Rows* rows_;
    size_t i_;
    Row row_;
  };
  Rows(const Table& table, std::span<const Line> lines, bool ragged)
      : table_(&table), lines_(lines), ragged_(ragged) {}
  iterator begin() const { return {this, first_}; }
  iterator end() const { return {this, lines_.size()}; }
  bool empty() const { return first_ == lines_.size(); }
  size_t size() const { return lines_.size() - first_; }
  Row front() const;
  void pop_front() { ++first_; }
  // Splits line i into `row`, checking its field count.
  void split(size_t i, Row& row) const;

 private:
  const Table* table_;
  std::span<const Line> lines_;
  bool ragged_;
  size_t first_ = 0;
};

struct Table {
  Table() = default;
  Table(const Table&) = delete;  // rows refer to it
  Table& operator=(const Table&) = delete;

  std::string file;
  uint64_t header_line = 0;
  std::vector<std::string> header;
  Rows rows{*this, {}, false};  // every content line after the header, the units row included
  std::vector<uint32_t> header_ids;  // header columns as ids of the profile's column names

  // Column index of `name`, or -1.
  int column(std::string_view name) const;
  // Column index of the first of `names` present, or -1.
  int first_column(std::initializer_list<std::string_view> names) const;
  // Like column() but BadInput at the header line when it is missing.
  int need(std::string_view name) const;
  // Removes and returns the units row when rows.front() has an empty or
  // non-numeric field in column `probe` (profilers put units under the header).
  std::vector<std::string> take_units_row(int probe);
  // Fills kernel.values with every non-blank field.
  // Every kernel of a table must share one profile's column names.
  void keep_values(const Row& row, Kernel& kernel);
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
void read_accelsim_log(const std::vector<std::string_view>& lines, Profile& p);

// Accel-Sim's get_stats.py CSV: the index of its first separator line (100
// '-', then empty fields) in `lines` (blank and "==" lines left out), if any.
std::optional<size_t> accelsim_stats_start(const std::vector<Rows::Line>& lines);
// Reads it from lines[first], taking the values of `config` (empty: the only one).
void read_accelsim_stats(const std::vector<Rows::Line>& lines, size_t first, const std::string& config, Profile& p);
// A kernel's launch number (kernel_launch_uid) and cycles (gpu_sim_cycle, else
// gpu_tot_sim_cycle) from its Accel-Sim statistics.
void set_accelsim_identity(const std::string& file, Kernel& k);

// A time value in `unit` as ns, or BadInput naming the column and unit.
double time_in_ns(const Table& t, uint64_t line, const std::string& column, std::string_view unit,
                  std::string_view text);

}  // namespace sasskit::profile
