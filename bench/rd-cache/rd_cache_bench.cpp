// rd-cache benchmark: sector accesses per second of the reuse-distance
// engine on one core, and the time of one sweep pass over 8 cache sizes
// divided by the time of 8 runs of the exact LRU simulator.
//   rd-cache-bench [LINE_ACCESSES]      (default 4000000)
#include <bit>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "level_stacks.hpp"
#include "lru_reference.hpp"
#include "reuse_distance.hpp"

using namespace sasskit;
using namespace sasskit::rdcache;

namespace {

// GPU-like line accesses: mostly streaming through arrays with some reuse
// of recent lines and some scattered ones; 1 to 4 sectors each.
std::vector<LineAccess> make_stream(size_t n, uint64_t footprint_lines) {
  std::mt19937_64 rng(42);
  std::vector<LineAccess> out;
  out.reserve(n);
  uint64_t cursor = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned kind = rng() % 16;
    uint64_t line;
    if (kind < 8) line = cursor++ % footprint_lines;
    else if (kind < 14 && cursor > 64) line = (cursor - 1 - rng() % 64) % footprint_lines;
    else line = rng() % footprint_lines;
    const uint32_t mask = kind % 2 ? 0xF : static_cast<uint32_t>(1 + rng() % 15);
    out.push_back({line, mask});
  }
  return out;
}

uint64_t sectors_of(const std::vector<LineAccess>& s) {
  uint64_t n = 0;
  for (const auto& a : s) n += std::popcount(a.mask);
  return n;
}

// CPU time of this thread: the machine may be shared, a core is a core.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

template <class F>
double seconds(F&& f) {
  const double t0 = cpu_now();
  f();
  return cpu_now() - t0;
}

double engine_rate(const std::vector<LineAccess>& s, uint64_t sets, uint64_t ways) {
  auto stack = make_stack(sets, 4, ways);
  uint32_t d[kMaxSectorsPerLine];
  uint64_t hits = 0;
  const double t = seconds([&] {
    for (const auto& a : s) {
      const unsigned n = stack->access(a.line, a.mask, d);
      for (unsigned i = 0; i < n; ++i) hits += d[i] < ways;
    }
  });
  std::printf("engine, %llu sets x %llu ways (%s): %.1f M sector accesses/s per core (target >= 20), "
              "hit rate %.3f\n",
              static_cast<unsigned long long>(sets), static_cast<unsigned long long>(ways),
              ways <= kBoundedDepthLimit ? "bounded stack" : "Fenwick", double(sectors_of(s)) / t / 1e6,
              double(hits) / double(sectors_of(s)));
  return t;
}

CacheGeometry l1_geometry() {
  CacheGeometry g;
  g.size_bytes = 32 * 1024;
  g.assoc = 4;
  return g;
}

// One LevelStacks pass with 8 sweep points against 8 exact simulations.
void sweep_ratio(const std::vector<LineAccess>& s, unsigned assoc) {
  std::vector<SweepPoint> points;
  for (uint64_t kb = 4; kb <= 512; kb *= 2) points.push_back({Level::L1, kb * 1024, assoc});
  LevelStacks stacks(Level::L1, l1_geometry(), points);
  const double t_sweep = seconds([&] {
    for (const auto& a : s) stacks.access(a, false);
  });
  uint64_t check = 0;
  const double t_exact = seconds([&] {
    for (const SweepPoint& p : points) {
      const SetsWays sw = sets_ways(p.size_bytes, p.assoc, 128, "bench");
      test::ExactLru lru(sw.sets, sw.ways);
      for (const auto& a : s) check += std::popcount(lru.access(a.line, a.mask));
    }
  });
  uint64_t hits = 0;
  for (const SweepResult& r : stacks.sweep_results(stacks.histograms())) hits += r.hits;
  std::printf("sweep over 8 L1 sizes 4K..512K, %s: one pass %.3f s, 8 exact LRU runs %.3f s, "
              "ratio %.3f (hits agree: %s)\n",
              assoc ? "4-way" : "fully associative", t_sweep, t_exact, t_sweep / t_exact,
              hits == check ? "yes" : "NO");
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4000000;
  const auto stream = make_stream(n, 1 << 18);
  std::printf("rd-cache-bench: %zu line accesses, %llu sectors, footprint 32 MiB\n", n,
              static_cast<unsigned long long>(sectors_of(stream)));
  engine_rate(stream, 1, 1 << 16);  // fully associative 8 MiB: Fenwick
  const auto cached = make_stream(n, 1 << 14);
  std::printf("same with a 2 MiB footprint (16 k lines):\n");
  engine_rate(cached, 1, 1 << 16);
  engine_rate(stream, 4, 64);       // QV100 L1, 32 KiB 64-way
  engine_rate(stream, 48, 4);       // GTX 1080 L1, 24 KiB 4-way
  engine_rate(stream, 3072, 16);    // QV100 L2, 6 MiB 16-way
  const auto small = make_stream(std::min<size_t>(n, 300000), 1 << 13);
  sweep_ratio(small, 4);
  sweep_ratio(small, 0);
  return 0;
}
