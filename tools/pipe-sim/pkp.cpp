#include "pkp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>

namespace sasskit::pipesim {

Pkp::Pkp(const PkpOptions& opt, std::vector<std::vector<uint64_t>> cta_insts, unsigned slots)
    : opt_(opt),
      cta_insts_(std::move(cta_insts)),
      slots_(std::max(1u, slots)),
      interval_(std::max<uint64_t>(1, opt.window / kSamples)),
      next_sample_(interval_) {
  for (const auto& sm : cta_insts_) total_ctas_ += sm.size();
  wave_ = std::max<uint64_t>(1, uint64_t(slots_) * cta_insts_.size());
  waves_.push_back(Mark{0, 0, std::vector<uint64_t>(cta_insts_.size(), 0)});
}

std::optional<PkpStop> Pkp::step(uint64_t cycle, const std::vector<SmProgress>& sms) {
  if (!opt_.enabled || opt_.grid_below_wave) return std::nullopt;
  uint64_t insts = 0, finished = 0;
  for (const SmProgress& sm : sms) {
    insts += sm.insts;
    finished += sm.finished_ctas;
  }
  const bool stable = ipc_quasi_stable(cycle, insts);
  // A wave has just finished (several may have in one step: one mark).
  if (finished >= total_ctas_ || finished / wave_ < waves_.size()) return std::nullopt;
  Mark mark{cycle, insts, {}};
  for (const SmProgress& sm : sms) mark.sm_insts.push_back(sm.insts);
  waves_.push_back(std::move(mark));
  // The first wave only gives a rate to compare the second's with.
  if (!stable || waves_.size() < 3) return std::nullopt;
  std::optional<PkpStop> stop = project(cycle, sms);
  if (!stop || stop->error_frac > opt_.max_error) return std::nullopt;
  return stop;
}

bool Pkp::ipc_quasi_stable(uint64_t cycle, uint64_t insts) {
  bool sampled = false;
  for (; next_sample_ <= cycle; next_sample_ += interval_) {
    samples_.push_back(double(insts) / double(next_sample_));
    if (samples_.size() > kSamples) samples_.pop_front();
    sampled = true;
  }
  if (!sampled || samples_.size() < kSamples) return false;
  double mean = 0, var = 0;
  for (double v : samples_) mean += v;
  mean /= double(samples_.size());
  for (double v : samples_) var += (v - mean) * (v - mean);
  return std::sqrt(var / double(samples_.size())) < opt_.s;
}

std::optional<PkpStop> Pkp::project(uint64_t cycle, const std::vector<SmProgress>& sms) const {
  const size_t n = waves_.size();
  const Mark &earlier = waves_[n - 3], &before = waves_[n - 2], &last = waves_[n - 1];
  const double rate = double(last.insts - before.insts) / double(last.cycle - before.cycle);
  const double rate_before = double(before.insts - earlier.insts) / double(before.cycle - earlier.cycle);
  if (!(rate > 0) || !(rate_before > 0)) return std::nullopt;
  // Each SM at its own rate since the first wave (the warm-up) ended: SMs
  // differ in work, and one wave is too short for one SM's rate.
  const Mark& warm = waves_[1];
  double steady = 0, earliest = std::numeric_limits<double>::infinity(), drained = 0;
  for (size_t j = 0; j < cta_insts_.size(); ++j) {
    const std::vector<uint64_t>& ctas = cta_insts_[j];
    const uint64_t done = sms[j].insts, finished = sms[j].finished_ctas;
    const uint64_t total = std::accumulate(ctas.begin(), ctas.end(), uint64_t{0});
    if (done >= total) continue;
    const double sm_rate = double(done - warm.sm_insts[j]) / double(cycle - warm.cycle);
    if (!(sm_rate > 0)) return std::nullopt;
    const double own = double(total - done) / sm_rate;
    steady = std::max(steady, own);
    earliest = std::min(earliest, own);
    // Which launched CTAs are still resident is not known: the longest are
    // taken, as they finish last.
    const size_t launched = std::min<size_t>(ctas.size(), finished + slots_);
    const uint64_t launched_insts = std::accumulate(ctas.begin(), ctas.begin() + launched, uint64_t{0});
    std::vector<uint64_t> resident(ctas.begin(), ctas.begin() + launched);
    std::sort(resident.begin(), resident.end(), std::greater<>());
    resident.resize(launched - std::min<size_t>(launched, finished));
    const std::vector<uint64_t> queued(ctas.begin() + launched, ctas.end());
    drained = std::max(drained, drain_cycles(resident, launched_insts - std::min(launched_insts, done), queued,
                                             slots_, sm_rate / slots_));
  }
  const double remaining = (steady + drained) / 2;
  // The tail's two limits; SMs that end apart, as the later ones then get
  // the bandwidth the others leave; and the change of rate since the wave
  // before, over what is left.
  const double error = (drained - steady) / 2 + (steady - std::min(steady, earliest)) / 2 +
                       remaining * std::fabs(rate - rate_before) / rate;
  return PkpStop{static_cast<uint64_t>(std::llround(remaining)), error / (double(cycle) + remaining)};
}

double drain_cycles(const std::vector<uint64_t>& resident, uint64_t resident_left, const std::vector<uint64_t>& queued,
                    unsigned slots, double cta_rate) {
  // The resident CTAs were launched one after another as slots freed, so
  // their progress is spread evenly: the i-th of r has (i + 1/2) / r of
  // its work left, scaled to what is left in all.
  double spread = 0;
  for (size_t i = 0; i < resident.size(); ++i) spread += double(resident[i]) * (double(i) + 0.5) / double(resident.size());
  const double scale = spread > 0 ? double(resident_left) / spread : 0;
  // When each slot is free, earliest first.
  std::priority_queue<double, std::vector<double>, std::greater<>> free;
  for (size_t i = 0; i < resident.size(); ++i)
    free.push(double(resident[i]) * (double(i) + 0.5) / double(resident.size()) * scale / cta_rate);
  while (free.size() < slots) free.push(0);
  double end = 0;
  for (uint64_t insts : queued) {
    const double at = free.top() + double(insts) / cta_rate;
    free.pop();
    free.push(at);
  }
  while (!free.empty()) {
    end = free.top();
    free.pop();
  }
  return end;
}

}  // namespace sasskit::pipesim
