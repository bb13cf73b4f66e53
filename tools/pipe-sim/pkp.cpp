#include "pkp.hpp"

#include <algorithm>
#include <cmath>

namespace sasskit::pipesim {

Pkp::Pkp(const PkpOptions& opt, uint64_t wave)
    : opt_(opt),
      wave_(wave),
      interval_(std::max<uint64_t>(1, opt.window / kSamples)),
      next_sample_(interval_) {}

bool Pkp::stable(uint64_t cycle, uint64_t insts, uint64_t finished_ctas, uint64_t total_ctas) {
  if (!opt_.enabled || opt_.grid_below_wave) return false;
  bool sampled = false;
  for (; next_sample_ <= cycle; next_sample_ += interval_) {
    samples_.push_back(double(insts) / double(next_sample_));
    if (samples_.size() > kSamples) samples_.pop_front();
    sampled = true;
  }
  if (!sampled || samples_.size() < kSamples) return false;
  bool wave_done = finished_ctas >= std::min(wave_, total_ctas);
  if (!wave_done || finished_ctas >= total_ctas) return false;
  double mean = 0, var = 0;
  for (double v : samples_) mean += v;
  mean /= double(samples_.size());
  for (double v : samples_) var += (v - mean) * (v - mean);
  return std::sqrt(var / double(samples_.size())) < opt_.s;
}

uint64_t Pkp::remaining_cycles(uint64_t cycle, uint64_t insts, uint64_t trace_insts) {
  if (insts == 0) return 0;
  return static_cast<uint64_t>(std::llround(double(cycle) * double(trace_insts - insts) / double(insts)));
}

}  // namespace sasskit::pipesim
