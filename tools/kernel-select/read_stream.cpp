// The suite stream as a profile. The kernel record carries no time, so a
// kernel's duration is its warp instruction count summed over its cta
// records; CTAs and warps come from the launch dimensions. Basic-block
// vectors (for photon) are built from the warps' PC sequences: a block
// starts at a warp's first PC, at the target of every non-sequential step
// and at the static successor of an instruction that jumped.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "formats/kernel_stream.hpp"
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

// The layer's events as profile rows; every record goes to `pass` first.
class ProfileBuilder : public stream::KernelHandler {
 public:
  ProfileBuilder(Profile& p, const RecordPass& pass, const MemberPass& next_member)
      : p_(p), pass_(pass), next_member_(next_member) {}

  void begin_member(const stream::Header& header, size_t member) override {
    if (member > 0) next_member_(header);
  }
  void begin_kernel(const stream::Kernel& k, const stream::Record& r) override {
    pass_(r);
    const KernelInfo& info = k.info();
    // Plans name kernels by id, so ids stay distinct across members too.
    if (kernels_.count(info.id)) fail_input(r.where(), "kernel " + std::to_string(info.id) + " appears twice");
    kernels_[info.id].row = p_.size();
    p_.add(info.id, info.name, 0);
    p_.insts.push_back(0);
    p_.ctas.push_back(info.grid.volume());
    p_.warps.push_back(info.grid.volume() * ((info.block.volume() + 31) / 32));
  }
  void insts(const stream::Kernel& k, const InstTable& slice, const stream::Record& r) override {
    pass_(r);
    kernels_[k.id()].add_table(slice);
  }
  void cta(const stream::Kernel& k, const stream::CtaRecord& c) override {
    pass_(c.record());
    KernelAccumulator& acc = kernels_[k.id()];
    for (const auto& w : c.decode().warps) {
      acc.add_warp(w);
      p_.insts[acc.row] += static_cast<double>(w.inst.size());
    }
  }
  void attached(const stream::Kernel&, const stream::Record& r) override { pass_(r); }
  void memcpy(const stream::Record& r) override { pass_(r); }
  void other(const stream::Record& r) override { pass_(r); }

  // Durations and basic-block vectors, once every record was read.
  void finish() {
    p_.duration = p_.insts;
    p_.bbv.resize(p_.size());
    for (const auto& [id, acc] : kernels_) p_.bbv[acc.row] = acc.bbv();
  }

 private:
  Profile& p_;
  const RecordPass& pass_;
  const MemberPass& next_member_;
  std::map<uint32_t, KernelAccumulator> kernels_;
};

}  // namespace

Profile read_stream_profile(stream::Reader& reader, const RecordPass& pass, const MemberPass& next_member) {
  Profile p;
  p.source = reader.name();
  p.unit = "warp-insts";
  ProfileBuilder builder(p, pass, next_member);
  stream::read_kernels(reader, builder);
  builder.finish();
  require_invocations(p);
  return p;
}

}  // namespace sasskit::kselect
