// Reads a stream to the end and builds the report: stats records joined
// with kernel, insts, cache, sample and plan records by kernel id. cta
// records are never decoded, so a stream's stats are read in time
// proportional to the stats, not the trace. A concatenated stream gives
// one report per member.
#pragma once

#include <istream>
#include <string>

#include "formats/stream.hpp"
#include "report.hpp"

namespace sasskit::stallreport {

struct GatherOptions {
  size_t top_pcs = 5;    // stalled PCs listed per kernel
  bool all_pcs = false;  // also keep every PC (KernelReport::pcs), for --pcs
};

// One member of a (possibly concatenated) stream and its report.
struct MemberReport {
  size_t member = 0;                      // 0 for the first
  std::vector<stream::Stage> provenance;  // the member's header
  Report report;
};

// Every member's report, in order. BadInput when a member has no stats record.
std::vector<MemberReport> gather_members(std::istream& in, const std::string& name, const GatherOptions& opt);
// Every member of the stream at `path` as a report of its own, each named
// (Report::source) `path` for the first member and "path: member N" after.
std::vector<Report> load_member_reports(const std::string& path, const GatherOptions& opt);

}  // namespace sasskit::stallreport
