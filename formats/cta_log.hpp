// Real CTA -> SM logs to replay: HyFiSS's issue.config and a plain CSV.
//
// issue.config (HyFiSS tracer, github.com/ConvolutedDog/HyFiSS,
// trace-parser/trace-parser.cc issue_config::init):
//   -trace_issued_sms_num 2
//   -trace_issued_sms_vector 0,2
//   -trace_issued_sm_id_0 2,0,(1,0,a7140c84716c),(1,1,a7140c847156),
//   -trace_issued_sm_id_2 1,2,(1,2,a7140c847160),
// each SM line: tuple count, SM id, then (kernel id, CTA linear index,
// hexadecimal timestamp) per CTA issued to that SM; (kernel id, CTA) without
// a timestamp, as older versions wrote, counts as time 0.
//
// CSV: "kernel,cta,sm,clock" per line (decimal; header line optional).
//
// In both, '#' starts a comment and clocks are taken as written: a replayed
// CTA starts at its clock minus the kernel's earliest clock.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "libcommon/cta_schedule.hpp"

namespace sasskit {

struct CtaLogEntry {
  uint32_t kernel_id = 0;
  uint64_t cta = 0;
  uint32_t sm = 0;
  uint64_t clock = 0;
  uint64_t line = 0;  // where it was written, for messages
};

class CtaLog {
 public:
  // Opens `path` ("-" = stdin) and detects its format from the first line.
  static CtaLog read(const std::string& path);
  static CtaLog parse_issue_config(std::istream& in, const std::string& name);
  static CtaLog parse_csv(std::istream& in, const std::string& name);

  const std::string& name() const { return name_; }
  bool has_kernel(uint32_t kernel_id) const { return kernels_.count(kernel_id) > 0; }

  // The replayed schedule of one kernel, policy "replay:NAME". BadInput when
  // the log lacks the kernel or one of its CTAs, names a CTA twice or beyond
  // the grid, or names an SM the model does not have.
  KernelSchedule schedule(uint32_t kernel_id, uint32_t num_ctas, unsigned num_sms) const;

 private:
  void add(const CtaLogEntry& e);

  std::string name_;
  std::map<uint32_t, std::vector<CtaLogEntry>> kernels_;
  uint64_t first_clock_ = UINT64_MAX;
};

}  // namespace sasskit
