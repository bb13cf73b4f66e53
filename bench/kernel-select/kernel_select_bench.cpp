// kernel-select's scale targets (issue 4): STEM+ROOT on 10 M invocations in
// <= 10 s and <= 2 GB; PKA on 100 k kernels in <= 30 s. Profiles are
// generated in memory (mixtures of multimodal duration distributions over a
// few hundred kernel names), so the numbers measure the methods, not CSV
// parsing. Prints measured times and their ratio to the budget.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "evaluate.hpp"
#include "methods.hpp"

using namespace sasskit::kselect;

namespace {

struct Mode {
  double centre, spread, share;
};

// `names` kernels, each with 1-4 duration modes (centres 1 us .. 1 ms,
// spreads 0.5-10%), launched in a random interleaving.
Profile generate_durations(size_t invocations, uint32_t names, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<Mode>> modes(names);
  for (auto& m : modes) {
    size_t k = 1 + rng.below(4);
    for (size_t i = 0; i < k; ++i)
      m.push_back({1e3 * std::pow(1e3, rng.unit()), 0.005 + 0.095 * rng.unit(), 0.2 + rng.unit()});
  }
  Profile p;
  p.id.reserve(invocations);
  p.name.reserve(invocations);
  p.duration.reserve(invocations);
  for (uint32_t n = 0; n < names; ++n) p.name_index(std::string("kernel_").append(std::to_string(n)));
  for (size_t i = 0; i < invocations; ++i) {
    uint32_t n = static_cast<uint32_t>(rng.below(names));
    double total = 0;
    for (const auto& m : modes[n]) total += m.share;
    double pick = rng.unit() * total;
    const Mode* mode = &modes[n].back();
    for (const auto& m : modes[n])
      if ((pick -= m.share) < 0) {
        mode = &m;
        break;
      }
    double noise = rng.unit() + rng.unit() + rng.unit() - 1.5;  // roughly normal
    p.id.push_back(i + 1);
    p.name.push_back(n);
    p.duration.push_back(std::max(1.0, mode->centre * (1 + mode->spread * noise)));
  }
  return p;
}

// 100 k kernels of 40 kinds with PKA's twelve features, 2% noise.
Profile generate_features(size_t kernels, uint64_t seed) {
  Rng rng(seed);
  const size_t f = 12, kinds = 40;
  std::vector<double> base(kinds * f), cycles(kinds);
  for (auto& b : base) b = 1e2 * std::pow(1e4, rng.unit());
  for (auto& c : cycles) c = 1e4 * std::pow(1e2, rng.unit());
  Profile p;
  for (size_t j = 0; j < f; ++j) p.feature_names.push_back(std::string("f").append(std::to_string(j)));
  for (size_t i = 0; i < kernels; ++i) {
    size_t kind = rng.below(kinds);
    p.add(i + 1, std::string("kind_").append(std::to_string(kind)), cycles[kind] * (1 + 0.02 * (rng.unit() - 0.5)));
    for (size_t j = 0; j < f; ++j) p.features.push_back(base[kind * f + j] * (1 + 0.02 * (rng.unit() - 0.5)));
  }
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t invocations = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const size_t kernels = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100'000;

  Profile p = generate_durations(invocations, 300, 1);
  auto t = std::chrono::steady_clock::now();
  MethodOptions stem;
  Selection s = make_selector(p, stem)(1);
  double stem_s = seconds_since(t);
  DrawScore d = score(p, s);
  std::printf("stem+root  %zu invocations, %zu names: %.2f s (budget 10 s, ratio %.3f), peak RSS %.0f MiB "
              "(budget 2048, ratio %.3f); %zu clusters, %zu samples, error %.3f%%, bound %.3f%%, speedup %.0f\n",
              p.size(), p.names.size(), stem_s, stem_s / 10, peak_rss_mib(), peak_rss_mib() / 2048,
              s.plan.clusters.size(), d.samples, 100 * d.error, 100 * *s.plan.error_bound, d.speedup);

  Profile f = generate_features(kernels, 2);
  t = std::chrono::steady_clock::now();
  MethodOptions pka;
  pka.method = "pka";
  Selection k = make_selector(f, pka)(1);
  double pka_s = seconds_since(t);
  std::printf("pka        %zu kernels, 12 features: %.2f s (budget 30 s, ratio %.3f); K = %.0f, "
              "%.0f components, error %.3f%%\n",
              f.size(), pka_s, pka_s / 30, k.plan.params.at("k"), k.plan.params.at("components"),
              100 * score(f, k).error);
  return 0;
}
