// The suite stream as a profile. The kernel record carries no time, so a
// kernel's duration is its warp instruction count summed over its cta
// records; CTAs and warps come from the launch dimensions. Basic-block
// vectors (for photon) are built from the warps' PC sequences: a block
// starts at a warp's first PC, at the target of every non-sequential step
// and at the static successor of an instruction that jumped.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "formats/records.hpp"
#include "libcommon/diag.hpp"
#include "read_profile.hpp"

namespace sasskit::kselect {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

struct KernelAccumulator {
  size_t row = 0;                      // its invocation in the profile
  std::vector<uint64_t> pcs;           // by table index
  std::vector<double> executed;        // warp instructions by table index
  std::vector<uint32_t> last_successor;
  std::unordered_set<uint64_t> edges;  // (from << 32 | to) table indices, non-repeating steps
  std::unordered_set<uint32_t> entries;

  void add_table(const InstTable& t) {
    for (const auto& i : t.insts) pcs.push_back(i.pc);
    executed.resize(pcs.size(), 0);
    last_successor.resize(pcs.size(), kNone);
  }

  void add_warp(const WarpTrace& w) {
    if (w.inst.empty()) return;
    entries.insert(w.inst.front());
    for (size_t k = 0; k < w.inst.size(); ++k) {
      executed[w.inst[k]] += 1;
      if (k == 0) continue;
      uint32_t from = w.inst[k - 1], to = w.inst[k];
      if (last_successor[from] != to) {
        last_successor[from] = to;
        edges.insert(uint64_t(from) << 32 | to);
      }
    }
  }

  Bbv bbv() const {
    std::vector<uint32_t> by_pc(pcs.size());
    for (uint32_t i = 0; i < by_pc.size(); ++i) by_pc[i] = i;
    std::stable_sort(by_pc.begin(), by_pc.end(), [&](uint32_t a, uint32_t b) { return pcs[a] < pcs[b]; });
    std::vector<uint32_t> rank(pcs.size());
    for (uint32_t r = 0; r < by_pc.size(); ++r) rank[by_pc[r]] = r;
    std::vector<bool> leader(pcs.size() + 1, false);
    for (uint32_t e : entries) leader[rank[e]] = true;
    for (uint64_t e : edges) {
      uint32_t from = rank[e >> 32], to = rank[e & 0xFFFFFFFFu];
      if (to != from + 1 && pcs[by_pc[to]] != pcs[by_pc[from]]) leader[to] = leader[from + 1] = true;
    }
    Bbv v;
    uint64_t block = by_pc.empty() ? 0 : pcs[by_pc[0]];
    for (uint32_t r = 0; r < by_pc.size(); ++r) {
      if (leader[r]) block = pcs[by_pc[r]];
      if (executed[by_pc[r]] > 0) v[block] += executed[by_pc[r]];
    }
    return v;
  }
};

KernelAccumulator& accumulator(std::map<uint32_t, KernelAccumulator>& kernels, uint32_t id,
                               const std::string& where) {
  auto it = kernels.find(id);
  if (it == kernels.end()) fail_input(where, "record refers to a kernel not announced before it");
  return it->second;
}

}  // namespace

Profile read_stream_profile(stream::Reader& reader,
                            const std::function<void(const stream::Record&)>& pass) {
  Profile p;
  p.source = reader.name();
  p.unit = "warp-insts";
  std::map<uint32_t, KernelAccumulator> kernels;
  stream::Record r;
  while (reader.next(r)) {
    pass(r);
    if (r.type() == "kernel") {
      KernelInfo k = stream::decode<KernelInfo>(r);
      if (kernels.count(k.id)) fail_input(r.where(), "kernel " + std::to_string(k.id) + " appears twice");
      kernels[k.id].row = p.size();
      p.add(k.id, k.name, 0);
      p.insts.push_back(0);
      p.ctas.push_back(k.grid.volume());
      p.warps.push_back(k.grid.volume() * ((k.block.volume() + 31) / 32));
    } else if (r.type() == "insts") {
      InstTable t = stream::decode<InstTable>(r);
      KernelAccumulator& acc = accumulator(kernels, t.kernel_id, r.where());
      if (t.first != acc.pcs.size()) fail_input(r.where(), "insts slice does not continue the table");
      acc.add_table(t);
    } else if (r.type() == "cta") {
      CtaTrace c = stream::decode<CtaTrace>(r);
      KernelAccumulator& acc = accumulator(kernels, c.kernel_id, r.where());
      for (const auto& w : c.warps) {
        for (uint32_t i : w.inst)
          if (i >= acc.pcs.size()) fail_input(r.where(), "instruction index out of the kernel's table");
        acc.add_warp(w);
        p.insts[acc.row] += static_cast<double>(w.inst.size());
      }
    }
  }
  p.duration = p.insts;
  p.bbv.resize(p.size());
  for (const auto& [id, acc] : kernels) p.bbv[acc.row] = acc.bbv();
  require_invocations(p);
  return p;
}

}  // namespace sasskit::kselect
