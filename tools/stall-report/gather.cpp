#include "gather.hpp"

#include <algorithm>
#include <map>

#include "formats/cache_record.hpp"
#include "formats/kernel_stream.hpp"
#include "formats/plan_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "libcommon/diag.hpp"
#include "libcommon/io.hpp"
#include "metrics.hpp"
#include "sass_text.hpp"

namespace sasskit::stallreport {

namespace {

struct Collected {
  std::vector<KernelStats> stats;
  std::map<uint32_t, KernelCacheModel> cache;
  std::map<uint32_t, KernelSample> sample;
  std::map<uint32_t, std::map<uint64_t, std::string>> sass;  // kernel -> pc -> text
  std::optional<Plan> plan;
  std::vector<stream::Stage> provenance;  // the member's header
};

// The records of one member that the report joins; cta records pass by.
struct Collector : stream::KernelHandler {
  std::vector<Collected> members;

  void begin_member(const stream::Header& header, size_t) override {
    members.emplace_back().provenance = header.provenance;
  }
  void insts(const stream::Kernel& k, const InstTable& slice, const stream::Record&) override {
    auto& texts = members.back().sass[k.id()];
    for (const StaticInst& inst : slice.insts) texts[inst.pc] = sass_text(inst);
  }
  void attached(const stream::Kernel&, const stream::Record& r) override {
    Collected& c = members.back();
    switch (r.type()) {
      case stream::RecordType::Stats:
        c.stats.push_back(stream::decode<KernelStats>(r));
        break;
      case stream::RecordType::Cache: {
        auto m = stream::decode<KernelCacheModel>(r);
        c.cache[m.kernel_id] = std::move(m);
        break;
      }
      case stream::RecordType::Sample: {
        auto s = stream::decode<KernelSample>(r);
        c.sample[s.kernel_id] = std::move(s);
        break;
      }
      default:
        break;
    }
  }
  void other(const stream::Record& r) override {
    Collected& c = members.back();
    if (r.type() == stream::RecordType::Plan && !c.plan) c.plan = stream::decode<Plan>(r);
  }
};

// Every PC of the stats record, in its (ascending) order.
std::vector<StalledPc> pc_rows(const KernelStats& ks, const std::map<uint64_t, std::string>* sass) {
  const PcStats& p = ks.per_pc;
  std::vector<StalledPc> all;
  for (size_t i = 0; i < p.pc.size(); ++i) {
    StalledPc s;
    s.pc = p.pc[i];
    s.insts = i < p.insts.size() ? p.insts[i] : 0;
    uint64_t most = 0;
    for (size_t ty = 0; ty < kStallTypes; ++ty) {
      uint64_t v = i < p.stall_type[ty].size() ? p.stall_type[ty][i] : 0;
      s.stall_type[ty] = v;
      s.stall_cycles += v;
      if (v > most) most = v, s.main_type = StallType(ty);
    }
    s.share = share(double(s.stall_cycles), double(ks.total.stall_cycles()));
    if (sass)
      if (auto it = sass->find(s.pc); it != sass->end()) s.sass = it->second;
    all.push_back(std::move(s));
  }
  return all;
}

// The `n` PCs with most stall cycles (ties by PC), most first.
std::vector<StalledPc> top_stalled_pcs(std::vector<StalledPc> all, size_t n) {
  std::erase_if(all, [](const StalledPc& s) { return s.stall_cycles == 0; });
  std::sort(all.begin(), all.end(), [](const StalledPc& a, const StalledPc& b) {
    return a.stall_cycles != b.stall_cycles ? a.stall_cycles > b.stall_cycles : a.pc < b.pc;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

Report member_report(const Collected& c, const std::string& name, const GatherOptions& opt) {
  std::optional<PlanSelection> plan;
  if (c.plan) plan.emplace(*c.plan);
  Report rep;
  rep.source = name;
  rep.provenance = c.provenance;
  if (c.plan) rep.plan_method = c.plan->method, rep.plan_error_bound = c.plan->error_bound;
  for (const KernelStats& ks : c.stats) {
    KernelReport k;
    k.id = ks.kernel_id;
    k.name = ks.name;
    k.gpu = ks.gpu;
    const auto sample_it = c.sample.find(ks.kernel_id);
    const KernelSample* sample = sample_it == c.sample.end() ? nullptr : &sample_it->second;
    k.sample_scale = sample_scale(sample);
    if (plan) {
      if (const PlanEntry* e = plan->entry(ks.kernel_id)) k.weight = e->weight;
      else warn(name, "kernel " + std::to_string(ks.kernel_id) + " is not in the plan; it weighs 1 in the totals");
    }
    auto cache = c.cache.find(ks.kernel_id);
    k.m = kernel_metrics(ks, cache == c.cache.end() ? nullptr : &cache->second, sample);
    auto sass = c.sass.find(ks.kernel_id);
    std::vector<StalledPc> pcs = pc_rows(ks, sass == c.sass.end() ? nullptr : &sass->second);
    k.top_pcs = top_stalled_pcs(pcs, opt.top_pcs);
    if (opt.all_pcs) k.pcs = std::move(pcs);
    rep.projected = rep.projected || k.weight != 1 || k.sample_scale != 1;
    rep.kernels.push_back(std::move(k));
  }
  rep.totals = application_totals(rep.kernels);
  return rep;
}

}  // namespace

std::vector<MemberReport> gather_members(std::istream& in, const std::string& name, const GatherOptions& opt) {
  stream::Reader reader(in, name);
  Collector collector;
  stream::read_kernels(reader, collector);
  std::vector<MemberReport> out;
  for (size_t m = 0; m < collector.members.size(); ++m) {
    const std::string where = m == 0 ? name : name + ": member " + std::to_string(m + 1);
    if (collector.members[m].stats.empty())
      fail_input(where, "no stats records in the stream; run pipe-sim before stall-report");
    const Collected& c = collector.members[m];
    out.push_back(MemberReport{m, c.provenance, member_report(c, where, opt)});
  }
  return out;
}

std::vector<Report> load_member_reports(const std::string& path, const GatherOptions& opt) {
  Input in(path);
  std::vector<MemberReport> members = gather_members(in.stream(), in.name(), opt);
  in.check_read_error();
  std::vector<Report> reports;
  for (MemberReport& m : members) reports.push_back(std::move(m.report));
  return reports;
}

}  // namespace sasskit::stallreport
