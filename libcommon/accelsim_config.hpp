// Importer for Accel-Sim's GPU configurations (gpgpusim.config + trace.config),
// so tuned Accel-Sim models can be converted: `--import-accelsim DIR --dump-config`.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "libcommon/gpu_config.hpp"

namespace sasskit {

// Accel-Sim option files: one "-name value" per line, '#' comments; a later
// line overrides an earlier one. Remembers where each value came from.
class AccelSimOptions {
 public:
  void read_file(const std::string& path);
  // The same from an open stream; `path` names it in messages.
  void read(std::istream& in, const std::string& path);
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // Required values: a missing or malformed one is a bad-input error.
  const std::string& text(const std::string& name) const;
  uint64_t number(const std::string& name) const;
  // Comma- or colon-separated fields of a value, e.g. "2048:32" -> {"2048", "32"}.
  std::vector<std::string> fields(const std::string& name, char sep) const;
  uint64_t field_number(const std::string& name, char sep, size_t index) const;
  double field_real(const std::string& name, char sep, size_t index) const;
  // A bad-input error at the line that set `name`.
  [[noreturn]] void bad(const std::string& name, const std::string& expected) const;
  uint64_t number_or(const std::string& name, uint64_t fallback) const {
    return has(name) ? number(name) : fallback;
  }

 private:
  struct Value {
    std::string text;
    std::string where;  // file:line
  };
  const Value& value(const std::string& name) const;
  std::map<std::string, Value> values_;
  std::string files_;  // for "missing" messages
};

// Reads DIR/gpgpusim.config and DIR/trace.config. The name is DIR's last
// component without a leading "SM<n>_" (SM7_QV100 -> QV100). See
// sasskit-config(5), IMPORTING, for how each Accel-Sim option maps.
GpuConfig import_accelsim(const std::string& dir);
GpuConfig import_accelsim(const AccelSimOptions& options, const std::string& name);

}  // namespace sasskit
