#include "sampler.hpp"

#include <algorithm>
#include <numeric>

namespace sasskit::ctasample {

std::vector<double> predict_per_sm(const NonStallModel& model, const KernelSchedule& schedule,
                                   const std::vector<UnitCounts>& cta_counts, unsigned num_sms) {
  std::vector<UnitCounts> per_sm(num_sms, UnitCounts{});
  for (size_t i = 0; i < schedule.sm.size(); ++i) per_sm[schedule.sm[i]] += cta_counts[i];
  std::vector<double> cycles(num_sms);
  for (unsigned sm = 0; sm < num_sms; ++sm) cycles[sm] = model.cycles(per_sm[sm]);
  return cycles;
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

}  // namespace

KernelSample choose_sample(const KernelSchedule& schedule, const std::vector<UnitCounts>& cta_counts,
                           const std::vector<double>& predicted, const SampleOptions& options) {
  KernelSample s;
  s.kernel_id = schedule.kernel_id;
  s.predicted_cycles = predicted;
  s.kernel_ctas = static_cast<uint32_t>(schedule.sm.size());
  std::vector<bool> has_ctas(predicted.size(), false);
  for (uint32_t sm : schedule.sm) has_ctas[sm] = true;
  if (options.force_sm) {
    s.selection = "sm";
    s.sms = {*options.force_sm};
  } else {
    s.selection = options.top > 1 ? "top" : "max";
    s.sms = longest_sms(predicted, has_ctas, options.top);
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
  s.sampling_error = sampling_error(s.predicted_cycles, s.sm_insts, s.sms);
  return s;
}

}  // namespace sasskit::ctasample
