#include "sampler.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>
#include <string>

#include "libcommon/diag.hpp"

namespace sasskit::ctasample {

std::vector<double> predict_per_sm(const NonStallModel& model, const KernelSchedule& schedule,
                                   const CtaUnitCounts& cta_counts, unsigned num_sms) {
  std::vector<UnitCounts> per_sm(num_sms, UnitCounts{});
  for (uint32_t i = 0; i < schedule.sm.size(); ++i) per_sm[schedule.sm[i]] += cta_counts[i];
  std::vector<double> cycles(num_sms);
  for (unsigned sm = 0; sm < num_sms; ++sm) cycles[sm] = model.cycles(per_sm[sm]);
  return cycles;
}

std::vector<double> sm_makespans(const KernelSchedule& schedule, const std::function<double(uint32_t cta)>& cta_time,
                                 unsigned slots, unsigned num_sms) {
  std::vector<uint32_t> order(schedule.sm.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return schedule.start[a] < schedule.start[b]; });
  // Per SM, when each slot frees (earliest first; a min-heap).
  std::vector<std::vector<double>> free(num_sms, std::vector<double>(std::max(1u, slots), 0.0));
  std::vector<double> end(num_sms, 0.0);
  for (uint32_t cta : order) {
    std::vector<double>& slot = free[schedule.sm[cta]];
    std::pop_heap(slot.begin(), slot.end(), std::greater<>());
    slot.back() += cta_time(cta);
    end[schedule.sm[cta]] = std::max(end[schedule.sm[cta]], slot.back());
    std::push_heap(slot.begin(), slot.end(), std::greater<>());
  }
  return end;
}

std::optional<double> sampling_error_estimate(const KernelSchedule& schedule, const CtaUnitCounts& cta_counts,
                                              const std::vector<double>& predicted, const std::vector<uint64_t>& sm_insts,
                                              const std::vector<uint32_t>& kept_sms, unsigned slots) {
  const auto insts = [&](uint32_t cta) { return double(total(cta_counts[cta])); };
  const auto fixed = [](uint32_t) { return 1.0; };
  const auto num_sms = static_cast<unsigned>(predicted.size());
  std::optional<double> furthest;
  for (const std::vector<double>& times : {predicted, sm_makespans(schedule, insts, slots, num_sms),
                                           sm_makespans(schedule, fixed, slots, num_sms)}) {
    const std::optional<double> e = sampling_error(times, sm_insts, kept_sms);
    if (!e) return std::nullopt;
    if (!furthest || std::fabs(*e) > std::fabs(*furthest)) furthest = e;
  }
  return furthest;
}

namespace {

std::vector<uint32_t> longest_sms(const std::vector<double>& predicted,
                                  const std::vector<bool>& has_ctas, unsigned k) {
  std::vector<uint32_t> order;
  for (uint32_t sm = 0; sm < predicted.size(); ++sm)
    if (has_ctas[sm]) order.push_back(sm);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return predicted[a] > predicted[b]; });
  order.resize(std::min<size_t>(order.size(), k));
  return order;
}

// The SM with CTAs predicted shortest that is not kept already.
std::optional<uint32_t> check_sm(const std::vector<double>& predicted, const std::vector<bool>& has_ctas,
                                 const std::vector<uint32_t>& kept) {
  std::optional<uint32_t> shortest;
  for (uint32_t sm = 0; sm < predicted.size(); ++sm)
    if (has_ctas[sm] && std::find(kept.begin(), kept.end(), sm) == kept.end() &&
        (!shortest || predicted[sm] < predicted[*shortest]))
      shortest = sm;
  return shortest;
}

// Whether every SM with CTAs holds as many CTAs as one of the kept SMs, or
// a number between two of theirs. An SM's scheduler cycles per instruction
// depend on how many CTAs it runs (its rounds, and the tail where few warps
// are left), so the kept SMs' measured spread speaks for the SMs between
// them, not for those holding more or fewer CTAs than any of them.
bool kept_span_cta_counts(const KernelSchedule& schedule, const std::vector<uint32_t>& kept, size_t num_sms) {
  std::vector<uint32_t> ctas(num_sms, 0);
  for (uint32_t sm : schedule.sm) ++ctas[sm];
  const auto extremes = std::minmax_element(kept.begin(), kept.end(),
                                            [&](uint32_t a, uint32_t b) { return ctas[a] < ctas[b]; });
  const uint32_t fewest = ctas[*extremes.first], most = ctas[*extremes.second];
  return std::all_of(ctas.begin(), ctas.end(), [&](uint32_t n) { return n == 0 || (n >= fewest && n <= most); });
}

}  // namespace

KernelSample choose_sample(const KernelSchedule& schedule, const CtaUnitCounts& cta_counts,
                           const std::vector<double>& predicted, const SampleOptions& options, unsigned slots) {
  KernelSample s;
  s.kernel_id = schedule.kernel_id;
  s.predicted_cycles = predicted;
  s.kernel_ctas = static_cast<uint32_t>(schedule.sm.size());
  std::vector<bool> has_ctas(predicted.size(), false);
  for (uint32_t sm : schedule.sm) has_ctas[sm] = true;
  if (options.force_sm) {
    // --sm on an SM this kernel left empty keeps nothing of it (the check
    // SM alone is no sample): an error, as every filter that selects nothing
    // (sasskit(7), CONVENTIONS).
    if (!schedule.sm.empty() && (*options.force_sm >= has_ctas.size() || !has_ctas[*options.force_sm]))
      throw Error(ExitCode::Failure, "kernel " + std::to_string(schedule.kernel_id),
                  "no CTA kept: --sm " + std::to_string(*options.force_sm) + " keeps 0 of its " +
                      std::to_string(schedule.sm.size()) + " CTAs, none of which runs there");
    s.selection = "sm";
    s.sms = {*options.force_sm};
  } else {
    s.selection = options.top > 1 ? "top" : "max";
    s.sms = longest_sms(predicted, has_ctas, options.top);
  }
  if (options.check) {
    s.check_sm = check_sm(predicted, has_ctas, s.sms);
    if (s.check_sm) s.sms.push_back(*s.check_sm);
  }
  std::vector<bool> kept_sm(predicted.size(), false);
  for (uint32_t sm : s.sms) kept_sm[sm] = true;
  s.sm_insts.assign(predicted.size(), 0);
  for (uint32_t i = 0; i < schedule.sm.size(); ++i) {
    const uint64_t insts = total(cta_counts[i]);
    s.kernel_insts += insts;
    s.sm_insts[schedule.sm[i]] += insts;
    if (kept_sm[schedule.sm[i]]) {
      s.ctas.push_back(i);
      s.sample_insts += insts;
    }
  }
  s.sampling_error = sampling_error_estimate(schedule, cta_counts, predicted, s.sm_insts, s.sms, slots);
  // The check SM stays kept (it makes the sample larger), but its spread
  // is no estimate for SMs whose CTA counts it and the SM predicted longest
  // do not span: the report falls back to the limits, taken over both.
  if (s.check_sm && !kept_span_cta_counts(schedule, s.sms, predicted.size())) s.check_sm.reset();
  return s;
}

}  // namespace sasskit::ctasample
