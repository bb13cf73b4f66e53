// Internal to the profile readers: a CSV export cut out of the text around
// it, with its header, optional units row and data rows.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/profile.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::profile {

struct Row {
  uint64_t line = 0;
  std::vector<std::string> fields;
};

// The input's lines, read once into a spill file (libcommon/spill.hpp): the
// layout is recognised from all of them, and the readers then go through
// them again, a line at a time. Memory holds an offset per line, never the
// file, so a read holds little more than what it keeps.
class Text {
 public:
  explicit Text(std::istream& in);
  size_t lines() const { return lines_.size(); }
  // Line `i` (0-based) without its '\n'.
  void line(size_t i, std::string& out) const { lines_.read_near(i, out); }
  // Whether the input starts with the SQLite header.
  bool sqlite() const { return sqlite_; }
  // Whether a line starts with an Accel-Sim log's gpu_sim_cycle or gpu_tot_sim_cycle.
  bool accelsim_log() const { return accelsim_log_; }

 private:
  void add(std::string_view line);
  SpillFile lines_;
  bool sqlite_ = false;
  bool accelsim_log_ = false;
};

// A CSV record that is not blank or a tool note, numbered by its first line:
// one whose quoted field holds a line break goes on with the next lines, up
// to the one that closes the field (or the end of the file, which leaves it
// unterminated). The first line loses its UTF-8 byte order mark.
struct Record {
  uint64_t number = 0;
  std::string text;
};

// The records of a Text, from a line on, one at a time.
class Records {
 public:
  explicit Records(const Text* text, size_t line = 0) : text_(text), at_(line) {}
  // The next record into `r`; false at the end of the text.
  bool next(Record& r);
  // The line the next record is looked for from.
  size_t line() const { return at_; }

 private:
  const Text* text_;
  size_t at_;
  std::string more_;
};

struct Table;

// The data records of a table, read and split into fields one at a time as
// they are visited (a table held split would take many times the file's
// size).
class Rows {
 public:
  class iterator {
   public:
    iterator(const Rows* rows, size_t left);
    const Row& operator*() const { return row_; }
    iterator& operator++();
    bool operator!=(const iterator& o) const { return left_ != o.left_; }

   private:
    void load();
    const Rows* rows_;
    size_t left_;
    Records records_;
    Record record_;
    Row row_;
  };
  // `count` records from line `first` of `text` on.
  Rows(const Table& table, const Text* text, size_t first, size_t count, bool ragged)
      : table_(&table), text_(text), first_(first), count_(count), ragged_(ragged) {}
  iterator begin() const { return {this, count_}; }
  iterator end() const { return {this, 0}; }
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  Row front() const;
  void pop_front();
  // Splits `record` into `row`, checking its field count.
  void split(const Record& record, Row& row) const;

 private:
  const Table* table_;
  const Text* text_;
  size_t first_;
  size_t count_;
  bool ragged_;
};

struct Table {
  Table() = default;
  Table(const Table&) = delete;  // rows refer to it
  Table& operator=(const Table&) = delete;

  std::string file;
  uint64_t header_line = 0;
  std::vector<std::string> header;
  Rows rows{*this, nullptr, 0, 0, false};  // every content line after the header, the units row included
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
void read_accelsim_log(const Text& text, Profile& p);

// Whether a record is the separator of Accel-Sim's get_stats.py CSV (100
// '-', then empty fields), which starts that layout.
bool is_stats_separator(const std::vector<std::string>& fields);
// Reads it from the separator on line `first` (0-based), taking the values
// of `config` (empty: the only one). `last` is the number of the text's
// last record.
void read_accelsim_stats(const Text& text, size_t first, uint64_t last, const std::string& config, Profile& p);
// A kernel's launch number (kernel_launch_uid) and cycles (gpu_sim_cycle, else
// gpu_tot_sim_cycle) from its Accel-Sim statistics.
void set_accelsim_identity(const std::string& file, Kernel& k);

// A time value in `unit` as ns, or BadInput naming the column and unit.
double time_in_ns(const Table& t, uint64_t line, const std::string& column, std::string_view unit,
                  std::string_view text);

}  // namespace sasskit::profile
