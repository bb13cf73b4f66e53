#include "summary.hpp"

#include <iomanip>
#include <map>
#include <sstream>

#include "formats/stream_json.hpp"
#include "latency.hpp"
#include "libcommon/json.hpp"

namespace sasskit::rdcache {

namespace {

double miss_rate(uint64_t hits, uint64_t accesses) {
  return accesses ? 1.0 - double(hits) / double(accesses) : 1.0;
}

void add_pcs(KernelCacheModel& m, const KernelAccesses& kernel, const KernelCounts& counts,
             const LatencyModel& latency) {
  std::map<uint64_t, InstCounts> by_pc;  // a PC may have two table entries
  for (size_t i = 0; i < counts.inst.size(); ++i) {
    const InstCounts& c = counts.inst[i];
    if (c.traffic.requests == 0) continue;
    InstCounts& p = by_pc[kernel.table[i].pc];
    p.traffic.requests += c.traffic.requests;
    p.traffic.sectors += c.traffic.sectors;
    p.l1.merge(c.l1);
    p.l2.merge(c.l2);
    p.written_back += c.written_back;
  }
  for (const auto& [pc, c] : by_pc) {
    m.pc.push_back(pc);
    m.amat.push_back(amat(latency, miss_rate(c.l1.hits, c.traffic.sectors), miss_rate(c.l2.hits, c.l2.accesses)));
    m.pc_l1_hit_rate.push_back(c.l1.rate());
    m.pc_l2_hit_rate.push_back(c.l2.rate());
    m.pc_requests.push_back(c.traffic.requests);
    m.pc_sectors.push_back(c.traffic.sectors);
    m.pc_l2_sectors.push_back(c.l2.accesses);
    m.pc_writeback_sectors.push_back(c.written_back);
  }
}

}  // namespace

KernelCacheModel make_record(const KernelAccesses& kernel, const KernelResult& result, uint64_t ctas,
                             const GpuConfig& gpu) {
  const KernelCounts& counts = result.counts;
  KernelCacheModel m;
  m.kernel_id = kernel.info.id;
  m.gpu = gpu.name;
  m.l1_hit_rate = counts.l1.rate();
  m.l2_hit_rate = counts.l2.rate();
  m.gmem_requests = counts.gmem_requests();
  m.ctas = ctas;
  m.l1_sectors = counts.l1.accesses;
  m.l1_hits = counts.l1.hits;
  m.l2_sectors = counts.l2.accesses;
  m.l2_hits = counts.l2.hits;
  m.l2_bound_sectors = counts.l2_bound_sectors;
  m.l2_bound_write_sectors = counts.l2_bound_write_sectors;
  m.dram_read_sectors = counts.dram_read_sectors;
  m.dram_write_sectors = counts.dram_write_sectors;
  m.dram_sectors = m.dram_read_sectors + m.dram_write_sectors;
  const LatencyModel latency = latency_model(gpu);
  uint64_t cached_sectors = 0;
  for (const InstCounts& c : counts.inst) cached_sectors += c.traffic.sectors;
  m.kernel_amat = cached_sectors ? amat(latency, miss_rate(counts.l1.hits, cached_sectors),
                                        miss_rate(counts.l2.hits, counts.l2.accesses))
                                 : 0;
  add_pcs(m, kernel, counts, latency);
  for (uint32_t sm = 0; sm < counts.sm_l1.size(); ++sm) {
    if (counts.sm_l1[sm].accesses == 0 && counts.sm_l2[sm].accesses == 0) continue;
    m.sm.push_back(sm);
    m.sm_l1_hit_rate.push_back(counts.sm_l1[sm].rate());
    m.sm_l2_hit_rate.push_back(counts.sm_l2[sm].rate());
  }
  for (size_t c = 0; c < kCategories; ++c) {
    if (counts.traffic[c].requests == 0) continue;
    m.space.push_back(category_name(c));
    m.space_requests.push_back(counts.traffic[c].requests);
    m.space_sectors.push_back(counts.traffic[c].sectors);
  }
  return m;
}

namespace {

class StreamSink : public stream::StreamSink<KernelCacheResult> {
 public:
  using stream::StreamSink<KernelCacheResult>::StreamSink;
  void result(const KernelCacheResult& r) override { writer().write(r.model); }
};

class JsonSink : public stream::SummarySink<KernelCacheResult> {
 public:
  JsonSink(std::ostream& out, const std::string& gpu_name, std::vector<stream::Stage> provenance)
      : SummarySink(out), json_(summary()), provenance_(std::move(provenance)) {
    json_.begin_object().field("gpu", gpu_name).key("kernels").begin_array();
  }
  void result(const KernelCacheResult& r) override {
    const KernelCacheModel& m = r.model;
    json_.begin_object()
        .field("kernel_id", uint64_t{m.kernel_id})
        .field("kernel_name", r.info.name)
        .field("l1_hit_frac", m.l1_hit_rate)
        .field("l2_hit_frac", m.l2_hit_rate)
        .field("gmem_requests", m.gmem_requests)
        .field("l1_sectors", m.l1_sectors)
        .field("l2_sectors", m.l2_sectors)
        .field("dram_sectors", m.dram_sectors)
        .field("dram_read_sectors", m.dram_read_sectors)
        .field("dram_write_sectors", m.dram_write_sectors)
        .field("amat_cycles", m.kernel_amat)
        .key("spaces")
        .begin_object();
    for (size_t i = 0; i < m.space.size(); ++i)
      json_.key(m.space[i]).begin_object()
          .field("requests", m.space_requests[i])
          .field("sectors", m.space_sectors[i])
          .end_object();
    json_.end_object().end_object();
  }

 private:
  void end_summary() override {
    json_.end_array().key("provenance");
    write_provenance(json_, provenance_);
    json_.end_object();
    summary() << '\n';
  }

  JsonWriter json_;
  std::vector<stream::Stage> provenance_;
};

class SweepCsvSink : public stream::SummarySink<KernelCacheResult> {
 public:
  explicit SweepCsvSink(std::ostream& out) : SummarySink(out) {
    summary() << std::fixed << std::setprecision(6);
    summary() << "kernel_id,level,size_bytes,assoc,sets,sectors,hit_sectors,hit_frac\n";
  }
  void result(const KernelCacheResult& k) override {
    for (const SweepResult& r : k.sweep) {
      const double rate = r.accesses ? double(r.hits) / double(r.accesses) : 0.0;
      summary() << k.info.id << ',' << level_name(r.point.level) << ',' << r.point.size_bytes << ','
                << r.point.assoc << ',' << r.sets << ',' << r.accesses << ',' << r.hits << ',' << rate << '\n';
    }
  }
};

}  // namespace

std::unique_ptr<Sink> stream_sink(std::ostream& out, const std::string& name,
                                  const stream::Header& upstream, stream::Stage self) {
  return std::make_unique<StreamSink>(out, name, upstream, std::move(self));
}
std::unique_ptr<Sink> json_sink(std::ostream& out, const std::string& gpu_name,
                                std::vector<stream::Stage> provenance) {
  return std::make_unique<JsonSink>(out, gpu_name, std::move(provenance));
}
std::unique_ptr<Sink> sweep_csv_sink(std::ostream& out) { return std::make_unique<SweepCsvSink>(out); }

}  // namespace sasskit::rdcache
