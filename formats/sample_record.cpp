#include "formats/sample_record.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "formats/field_table.hpp"

namespace sasskit {

std::optional<double> sampling_error(const std::vector<double>& predicted_cycles,
                                     const std::vector<uint64_t>& sm_insts, const std::vector<uint32_t>& kept_sms) {
  double cycles = 0, insts = 0, kept_cycles = 0, kept_insts = 0;
  for (size_t sm = 0; sm < predicted_cycles.size() && sm < sm_insts.size(); ++sm)
    cycles += predicted_cycles[sm], insts += double(sm_insts[sm]);
  for (uint32_t sm : kept_sms)
    if (sm < predicted_cycles.size() && sm < sm_insts.size())
      kept_cycles += predicted_cycles[sm], kept_insts += double(sm_insts[sm]);
  if (cycles <= 0 || insts <= 0 || kept_insts <= 0) return std::nullopt;
  return (kept_cycles / kept_insts) / (cycles / insts) - 1;
}

std::optional<double> check_sampling_error(const KernelSample& sample, const std::vector<KeptSm>& kept) {
  if (!sample.check_sm || sample.kernel_insts == 0 || sample.sample_insts == 0) return std::nullopt;
  double insts = 0, cycles = 0;
  std::vector<double> cpi;
  for (uint32_t sm : sample.sms) {
    const auto it = std::find_if(kept.begin(), kept.end(), [&](const KeptSm& k) { return k.sm == sm; });
    if (it == kept.end() || it->insts <= 0) return std::nullopt;
    insts += it->insts;
    cycles += it->sched_cycles;
    cpi.push_back(it->sched_cycles / it->insts);
  }
  if (cpi.size() < 2) return std::nullopt;
  // Two standard errors of the kept SMs' mean, the deviation estimated
  // from their spread (n - 1 in the variance).
  const double n = double(cpi.size()), mean = std::accumulate(cpi.begin(), cpi.end(), 0.0) / n;
  double var = 0;
  for (double c : cpi) var += (c - mean) * (c - mean);
  const double band = 2 * std::sqrt(var / (n - 1) / n);
  const double pooled = cycles / insts;
  const double all = double(sample.kernel_insts), in = double(sample.sample_insts);
  const auto error = [&](double rest) { return pooled * all / (pooled * in + rest * (all - in)) - 1; };
  const double low = error(pooled + band), high = error(std::max(0.0, pooled - band));
  return std::fabs(low) > std::fabs(high) ? low : high;
}

std::optional<double> combined_sampling_error(const std::vector<SampledCycles>& kernels) {
  double projected = 0, corrected = 0;
  bool sampled = false;
  for (const SampledCycles& k : kernels) {
    if (k.sampled && !(k.error && *k.error > -1)) return std::nullopt;
    sampled = sampled || k.sampled;
    projected += k.cycles;
    corrected += k.cycles / (1 + k.error.value_or(0));
  }
  if (!sampled || corrected <= 0) return std::nullopt;
  return projected / corrected - 1;
}

}  // namespace sasskit

namespace sasskit::stream {

namespace {

using S = KernelSample;

// The record's fields in its order (formats/STREAM.md, sample). A new field
// is a member and a line here.
constexpr Field<S> kFields[] = {
    {"kernel", &S::kernel_id},
    {"gpu", &S::gpu, Need::IfSet},
    {"selection", &S::selection},
    {"sms", &S::sms},
    {"ctas", &S::ctas},
    {"predicted_cycles", &S::predicted_cycles},
    {"kernel_insts", &S::kernel_insts},
    {"sample_insts", &S::sample_insts},
    {"kernel_ctas", &S::kernel_ctas},
    {"sm_insts", &S::sm_insts, Need::IfSet},
    {"sampling_error", &S::sampling_error, Need::IfSet},
    {"check_sm", &S::check_sm, Need::IfSet},
};

}  // namespace

void RecordCodec<KernelSample>::pack(Packer& pk, const KernelSample& s) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, s, kFields);
  });
}

KernelSample RecordCodec<KernelSample>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelSample s;
  read_fields(m, s, kFields, "sample");
  if (s.check_sm && std::find(s.sms.begin(), s.sms.end(), *s.check_sm) == s.sms.end())
    fail_input(r.where(), "check_sm " + std::to_string(*s.check_sm) + " is not one of the kept 'sms'");
  if (s.sample_insts > s.kernel_insts)
    fail_input(r.where(), "sample_insts exceeds kernel_insts");
  if (!s.sm_insts.empty() && s.sm_insts.size() != s.predicted_cycles.size())
    fail_input(r.where(), "sample columns 'sm_insts' and 'predicted_cycles' differ in length");
  if (s.sampling_error && !std::isfinite(*s.sampling_error))
    fail_input(r.where(), "field 'sampling_error' is not a finite number");
  return s;
}

}  // namespace sasskit::stream
