// Reads a stream to the end and builds the report: stats records joined
// with kernel, insts, cache, sample and plan records by kernel id.
#pragma once

#include <istream>
#include <string>

#include "report.hpp"

namespace sasskit::stallreport {

struct GatherOptions {
  size_t top_pcs = 5;    // stalled PCs listed per kernel
  bool all_pcs = false;  // also keep every PC (KernelReport::pcs), for --pcs
};

// BadInput when the stream has no stats record.
Report gather_report(std::istream& in, const std::string& name, const GatherOptions& opt);
Report load_report(const std::string& path, const GatherOptions& opt);

}  // namespace sasskit::stallreport
