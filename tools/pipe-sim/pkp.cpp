#include "pkp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>

namespace sasskit::pipesim {

Pkp::Pkp(const PkpOptions& opt, std::vector<std::vector<uint64_t>> cta_insts, unsigned slots, ChipMemory chip)
    : opt_(opt),
      cta_insts_(std::move(cta_insts)),
      slots_(std::max(1u, slots)),
      chip_(chip),
      interval_(std::max<uint64_t>(1, opt.window / kSamples)),
      next_sample_(interval_) {
  for (const auto& sm : cta_insts_) total_ctas_ += sm.size();
  wave_ = std::max<uint64_t>(1, uint64_t(slots_) * cta_insts_.size());
  waves_.push_back(Mark{0, 0, std::vector<uint64_t>(cta_insts_.size(), 0)});
}

std::optional<PkpStop> Pkp::step(uint64_t cycle, const std::vector<SmProgress>& sms) {
  if (!opt_.enabled) return std::nullopt;
  std::optional<PkpStop> stop = opt_.grid_below_wave ? std::nullopt : wave_step(cycle, sms);
  if (!stop) stop = drain_step(cycle, sms);
  if (!stop || stop->error_frac > opt_.max_error) return std::nullopt;
  return stop;
}

std::optional<PkpStop> Pkp::wave_step(uint64_t cycle, const std::vector<SmProgress>& sms) {
  uint64_t insts = 0, finished = 0;
  for (const SmProgress& sm : sms) {
    insts += sm.insts;
    finished += sm.finished_ctas;
  }
  const bool stable = ipc_quasi_stable(cycle, insts);
  // A wave has just finished (several may have in one step: one mark).
  if (finished >= total_ctas_ || finished / wave_ < waves_.size()) return std::nullopt;
  Mark mark{cycle, insts, {}};
  for (const SmProgress& sm : sms) {
    mark.sm_insts.push_back(sm.insts);
    mark.l2 += sm.l2_bytes;
    mark.dram += sm.dram_bytes;
    mark.l2_reads += sm.l2_reads;
    mark.l2_read_misses += sm.l2_read_misses;
  }
  waves_.push_back(std::move(mark));
  // The first wave only gives a rate to compare the second's with.
  if (!stable || waves_.size() < 3) return std::nullopt;
  return project(cycle, sms);
}

std::optional<PkpStop> Pkp::drain_step(uint64_t cycle, const std::vector<SmProgress>& sms) {
  WorkLeft now{cycle, {}};
  for (const SmProgress& sm : sms) {
    if (sm.left_per_warp.empty()) {  // CTAs still to launch
      drain_.clear();
      return std::nullopt;
    }
    now.left.push_back(sm.left_per_warp);
  }
  drain_.push_back(std::move(now));
  // The front: the latest step at least two windows back.
  while (drain_.size() > 1 && drain_[1].cycle + 2 * opt_.window <= cycle) drain_.pop_front();
  if (drain_.front().cycle + 2 * opt_.window > cycle) return std::nullopt;
  size_t b = 0;
  while (drain_[b + 1].cycle + opt_.window <= cycle) ++b;
  if (b == 0) return std::nullopt;  // no step between: no rate to compare
  return project_drain(drain_.front(), drain_[b], drain_.back(), opt_.window);
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

bool Pkp::at_chip_rate(double ChipMemory::*rate, double Mark::*moved) const {
  const size_t n = waves_.size();
  const Mark &warm = waves_[1], &before = waves_[n - 2], &last = waves_[n - 1];
  // At the chip's rate within the user's tolerance, over the last wave and
  // since the warm-up.
  const double chip = chip_.*rate;
  auto use = [&](const Mark& from) { return (last.*moved - from.*moved) / double(last.cycle - from.cycle) / chip; };
  return chip > 0 && use(before) >= 1 - opt_.max_error && use(warm) >= 1 - opt_.max_error;
}

std::optional<size_t> Pkp::l2_filled_mark() const {
  // A kernel whose L2 reads all miss (a stream, within the tolerance, over
  // the last wave) gains nothing as the L2 fills.
  const Mark &before = waves_[waves_.size() - 2], &last = waves_.back();
  const double reads = last.l2_reads - before.l2_reads, misses = last.l2_read_misses - before.l2_read_misses;
  if (reads - misses <= opt_.max_error * reads) return 1;
  for (size_t i = 1; i < waves_.size(); ++i)
    if (waves_[i].dram >= chip_.l2_capacity) return i;
  return std::nullopt;
}

namespace {

// Of an SM's CTAs in launch order, those not finished: the resident ones
// (which of the launched CTAs these are is not known: the longest are
// taken, as they finish last), longest first, then those queued.
std::pair<std::vector<uint64_t>, std::vector<uint64_t>> unfinished_ctas(const std::vector<uint64_t>& ctas,
                                                                        uint64_t finished, unsigned slots) {
  const size_t launched = std::min<size_t>(ctas.size(), finished + slots);
  std::vector<uint64_t> resident(ctas.begin(), ctas.begin() + launched);
  std::sort(resident.begin(), resident.end(), std::greater<>());
  resident.resize(launched - std::min<size_t>(launched, finished));
  return {std::move(resident), std::vector<uint64_t>(ctas.begin() + launched, ctas.end())};
}

}  // namespace

std::optional<PkpStop> Pkp::project(uint64_t cycle, const std::vector<SmProgress>& sms) const {
  const size_t n = waves_.size();
  const Mark &earlier = waves_[n - 3], &before = waves_[n - 2], &last = waves_[n - 1];
  const double rate = double(last.insts - before.insts) / double(last.cycle - before.cycle);
  const double rate_before = double(before.insts - earlier.insts) / double(before.cycle - earlier.cycle);
  if (!(rate > 0) || !(rate_before > 0)) return std::nullopt;
  std::optional<Tail> tail;
  if (at_chip_rate(&ChipMemory::dram, &Mark::dram)) {
    // A DRAM-bound kernel's rate is that of the filled L2's misses.
    if (const std::optional<size_t> warm = l2_filled_mark()) tail = throughput_tail(sms, *warm);
  } else {
    tail = at_chip_rate(&ChipMemory::l2, &Mark::l2) ? throughput_tail(sms, 1) : per_sm_tail(cycle, sms);
  }
  if (!tail) return std::nullopt;
  const double remaining = tail->remaining;
  // The change of rate since the wave before, or the last wave's rate's
  // gap to the rate projected with where larger, over what is left.
  const double error = tail->half_gap + remaining * std::max(std::fabs(rate - rate_before), tail->rate_gap) / rate;
  return PkpStop{static_cast<uint64_t>(std::llround(remaining)), error / (double(cycle) + remaining)};
}

std::optional<Pkp::Tail> Pkp::per_sm_tail(uint64_t cycle, const std::vector<SmProgress>& sms) const {
  // Each SM at its own rate since the first wave (the warm-up) ended: SMs
  // differ in work, and one wave is too short for one SM's rate.
  const Mark& warm = waves_[1];
  double steady = 0, earliest = std::numeric_limits<double>::infinity(), drained = 0;
  for (size_t j = 0; j < cta_insts_.size(); ++j) {
    const std::vector<uint64_t>& ctas = cta_insts_[j];
    const uint64_t done = sms[j].insts;
    const uint64_t total = std::accumulate(ctas.begin(), ctas.end(), uint64_t{0});
    if (done >= total) continue;
    const double sm_rate = double(done - warm.sm_insts[j]) / double(cycle - warm.cycle);
    if (!(sm_rate > 0)) return std::nullopt;
    const double own = double(total - done) / sm_rate;
    steady = std::max(steady, own);
    earliest = std::min(earliest, own);
    const auto [resident, queued] = unfinished_ctas(ctas, sms[j].finished_ctas, slots_);
    const uint64_t launched_insts = total - std::accumulate(queued.begin(), queued.end(), uint64_t{0});
    drained = std::max(drained, drain_cycles(resident, launched_insts - std::min(launched_insts, done), queued,
                                             slots_, sm_rate / slots_));
  }
  // The tail's two limits; SMs that end apart, as the later ones then get
  // the bandwidth the others leave.
  return Tail{(steady + drained) / 2, (drained - steady) / 2 + (steady - std::min(steady, earliest)) / 2};
}

std::optional<Pkp::Tail> Pkp::throughput_tail(const std::vector<SmProgress>& sms, size_t warm_mark) const {
  // The chip's rate since the warm-up holds while the DRAM or L2 stays
  // busy; the CTAs still running when the work would be done at that rate
  // end at most one CTA's time later, as the bandwidth the emptied SMs
  // leave only speeds them up: the longest CTA still to finish, at its
  // part of the chip's rate (shared by every resident CTA). The rate is
  // taken since the first wave's end, only once two waves have run after
  // the warm-up (the mark `warm`), and may be off by as much as the last
  // wave's differs from it, or the rate since the warm-up where that lasted
  // longer (the waves' rate still moving).
  const size_t n = waves_.size();
  if (n < warm_mark + 3) return std::nullopt;
  const Mark &first = waves_[1], &warm = waves_[warm_mark], &before = waves_[n - 2], &last = waves_[n - 1];
  const auto rate_since = [&](const Mark& from) { return double(last.insts - from.insts) / double(last.cycle - from.cycle); };
  const double rate = rate_since(first);
  const double rate_gap = std::max(std::fabs(rate_since(before) - rate), std::fabs(rate_since(warm) - rate));
  if (!(rate > 0)) return std::nullopt;
  uint64_t left = 0, longest = 0;
  for (size_t j = 0; j < cta_insts_.size(); ++j) {
    const std::vector<uint64_t>& ctas = cta_insts_[j];
    const uint64_t total = std::accumulate(ctas.begin(), ctas.end(), uint64_t{0});
    left += total - std::min(total, sms[j].insts);
    const auto [resident, queued] = unfinished_ctas(ctas, sms[j].finished_ctas, slots_);
    for (const auto* part : {&resident, &queued})
      if (!part->empty()) longest = std::max(longest, *std::max_element(part->begin(), part->end()));
  }
  const double cta_time = double(longest) * double(cta_insts_.size() * slots_) / rate;
  const double remaining = double(left) / rate + cta_time / 2;
  return Tail{remaining, cta_time / 2, rate_gap};
}

std::optional<PkpStop> project_drain(const WorkLeft& a, const WorkLeft& b, const WorkLeft& c, uint64_t window) {
  const double recent = double(c.cycle - b.cycle), before = double(b.cycle - a.cycle);
  // The latest end: each warp keeping its share of its SM's rate as the
  // others end (latency-bound). The earliest: the GPU keeping its rate
  // until the last instruction (SMs that end first hand their bandwidth to
  // the others). The change of the rate of an SM's warps still running (as
  // others end), over the cycles it has left.
  double latest = 0, drift = 0, rate = 0;
  uint64_t left = 0;
  for (size_t j = 0; j < c.left.size(); ++j) {
    const std::vector<uint64_t> &was = a.left[j], &mid = b.left[j], &now = c.left[j];
    uint64_t sm_left = 0, longest = 0, warps = 0, sm_done = 0, sm_done_before = 0;
    for (size_t w = 0; w < now.size(); ++w) {
      if (now[w] == 0) continue;
      ++warps;
      sm_left += now[w];
      longest = std::max(longest, now[w]);
      sm_done += mid[w] - now[w];
      sm_done_before += was[w] - mid[w];
    }
    if (warps == 0) continue;  // ended
    if (sm_done == 0) return std::nullopt;
    const double sm_rate = double(sm_done) / recent, sm_latest = double(longest * warps) / sm_rate;
    left += sm_left;
    rate += sm_rate;
    latest = std::max(latest, sm_latest);
    drift = std::max(drift, sm_latest * std::fabs(sm_rate - double(sm_done_before) / before) / sm_rate);
  }
  if (!(rate > 0)) return std::nullopt;
  const double earliest = double(left) / rate, remaining = (earliest + latest) / 2;
  // The rates are measured over a window: the warps' last instructions
  // (stores, exits, the last barrier), a stretch shorter than that, may run
  // at another rate, up to half a window either way; so a kernel is not
  // stopped in its last window.
  const double error = (latest - earliest) / 2 + drift + double(window) / 2;
  if (remaining < double(window)) return std::nullopt;
  return PkpStop{static_cast<uint64_t>(std::llround(remaining)), error / (double(c.cycle) + remaining)};
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
