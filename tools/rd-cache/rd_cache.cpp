#include "rd_cache.hpp"

#include <charconv>
#include <optional>

#include "formats/cache_record.hpp"
#include "formats/records.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/spill.hpp"

namespace sasskit::rdcache {

namespace {

// The kernel's CTAs, waiting in the spill file: each is read back and its
// accesses extracted when its SM's group comes up.
class SpilledCtas : public CtaSource {
 public:
  SpilledCtas(const KernelAccesses& kernel, const SpillFile& spill) : kernel_(kernel), spill_(spill) {}
  void add(uint32_t linear, size_t record) { ctas_.push_back({linear, record}); }
  bool empty() const { return ctas_.empty(); }
  size_t size() const override { return ctas_.size(); }
  uint32_t linear(size_t cta) const override { return ctas_[cta].first; }
  CtaAccesses load(size_t cta) const override {
    std::string bytes;
    spill_.read(ctas_[cta].second, bytes);
    return cta_accesses(kernel_, stream::decode<CtaTrace>(stream::Record(bytes, "spilled cta record")));
  }

 private:
  const KernelAccesses& kernel_;
  const SpillFile& spill_;
  std::vector<std::pair<uint32_t, size_t>> ctas_;  // linear index, spill record
};

class Filter {
 public:
  Filter(Sink& sink, const GpuConfig& gpu, const Options& options)
      : sink_(sink), gpu_(gpu), options_(options),
        model_(gpu, make_access_order(options.order), options.sweep, options.threads) {}

  void record(const stream::Record& r) {
    const std::string& type = r.type();
    if (type == "kernel" || type == "memcpy") flush();
    if (type == "kernel") {
      kernel_.emplace(stream::decode<KernelInfo>(r), gpu_);
      ctas_.emplace(*kernel_, spill_);
    } else if (type == "memcpy") {
      const Memcpy m = stream::decode<Memcpy>(r);
      if (options_.memcpy_to_l2) model_.copy_to_l2(m.address, m.bytes);
    } else if (type == "insts") {
      add_insts(stream::decode<InstTable>(r), r.where());
    } else if (type == "cta") {
      const CtaTrace cta = stream::decode<CtaTrace>(r);
      const uint32_t linear = check_cta(current(cta.kernel_id, r.where()), cta, r.where());
      ctas_->add(linear, spill_.append(r.bytes()));
      return;
    } else if (type == "sched") {
      KernelSchedule s = stream::decode<KernelSchedule>(r);
      if (kernel_ && kernel_->info.id == s.kernel_id) schedule_ = std::move(s);
    } else if (type == "cache") {
      return;
    }
    pass_on(r);
  }

  void flush() {
    if (!kernel_) return;
    spill_.flush();
    if (ctas_->empty()) {
      warn("kernel " + std::to_string(kernel_->info.id),
           "no cta records (a stream without addresses?): no cache model for this kernel");
    } else {
      const unsigned per_sm = occupancy(gpu_, CtaResources{static_cast<unsigned>(kernel_->info.block.volume()),
                                                           kernel_->info.nregs, kernel_->info.shmem})
                                  .ctas_per_sm;
      const KernelSchedule schedule = schedule_ ? *schedule_ : modeled_schedule(per_sm);
      const KernelResult result = model_.run(*kernel_, *ctas_, schedule, per_sm);
      sink_.kernel(kernel_->info, make_record(*kernel_, result, gpu_), result.sweep);
    }
    spill_.replay([&](const std::string& bytes, int64_t) { sink_.record(stream::Record(bytes, "spilled record")); });
    ctas_.reset();
    kernel_.reset();
    schedule_.reset();
  }

 private:
  // From the kernel's first cta record on, records wait in the spill file
  // until the kernel's cache record is out.
  void pass_on(const stream::Record& r) {
    if (spill_.size() > 0)
      spill_.append(r.bytes());
    else
      sink_.record(r);
  }

  KernelAccesses& current(uint32_t kernel_id, const std::string& where) {
    if (!kernel_ || kernel_->info.id != kernel_id)
      fail_input(where, "record of kernel " + std::to_string(kernel_id) +
                            " is not preceded by that kernel's kernel record");
    return *kernel_;
  }

  void add_insts(const InstTable& t, const std::string& where) {
    KernelAccesses& k = current(t.kernel_id, where);
    if (t.first != k.table.size())
      fail_input(where, "insts slice starts at " + std::to_string(t.first) + ", expected " +
                            std::to_string(k.table.size()));
    rdcache::add_insts(k, t.insts);
  }

  KernelSchedule modeled_schedule(unsigned per_sm) const {
    if (per_sm == 0)
      fail("kernel " + std::to_string(kernel_->info.id) + ": not one CTA fits on an SM of " + gpu_.name);
    return model_schedule(gpu_, kernel_->info.id, static_cast<uint32_t>(kernel_->info.grid.volume()), per_sm,
                          SchedPolicyKind::RoundRobin);
  }

  Sink& sink_;
  const GpuConfig& gpu_;
  const Options& options_;
  CacheModel model_;
  SpillFile spill_;
  std::optional<KernelAccesses> kernel_;
  std::optional<SpilledCtas> ctas_;
  std::optional<KernelSchedule> schedule_;
};

uint64_t parse_size(std::string_view text) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit(end, text.data() + text.size() - end);
  uint64_t scale = 0;
  if (unit.empty()) scale = 1;
  if (unit == "K" || unit == "KiB") scale = uint64_t{1} << 10;
  if (unit == "M" || unit == "MiB") scale = uint64_t{1} << 20;
  if (unit == "G" || unit == "GiB") scale = uint64_t{1} << 30;
  if (ec != std::errc() || end == text.data() || scale == 0 || value == 0)
    fail_usage("--sweep: '" + std::string(text) + "' is not a size (e.g. 32K, 4MiB)");
  return value * scale;
}

std::vector<std::string_view> split(std::string_view list) {
  std::vector<std::string_view> items;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    items.push_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return items;
}

}  // namespace

void run_filter(stream::Reader& in, Sink& sink, const GpuConfig& gpu, const Options& options) {
  Filter filter(sink, gpu, options);
  stream::Record r;
  while (in.next(r)) filter.record(r);
  filter.flush();
  sink.finish();
}

std::vector<SweepPoint> parse_sweep(const std::string& sizes, const std::string& assoc_list, const GpuConfig& gpu) {
  std::vector<unsigned> assocs;
  for (std::string_view item : split(assoc_list)) {
    unsigned a = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), a);
    if (ec != std::errc() || end != item.data() + item.size())
      fail_usage("--sweep-assoc: '" + std::string(item) + "' is not a number of ways");
    assocs.push_back(a);
  }
  std::vector<SweepPoint> points;
  for (std::string_view item : split(sizes)) {
    std::vector<Level> levels = {Level::L1, Level::L2};
    if (item.starts_with("l1:") || item.starts_with("l2:")) {
      levels = {item[1] == '1' ? Level::L1 : Level::L2};
      item.remove_prefix(3);
    }
    const uint64_t size = parse_size(item);
    for (Level level : levels) {
      const CacheGeometry& g = level == Level::L1 ? gpu.l1d : gpu.l2;
      std::vector<unsigned> ways = assocs;
      if (ways.empty()) ways = g.assoc == 0 ? std::vector<unsigned>{0} : std::vector<unsigned>{g.assoc, 0};
      for (unsigned a : ways) {
        sets_ways(size, a, g.line_bytes, std::string("--sweep ") + level_name(level) + ":" + std::string(item));
        points.push_back(SweepPoint{level, size, a});
      }
    }
  }
  return points;
}

}  // namespace sasskit::rdcache
