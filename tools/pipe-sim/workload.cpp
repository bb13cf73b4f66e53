#include "workload.hpp"

#include <map>

#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"

namespace sasskit::pipesim {
namespace {

KernelInput& kernel_for(std::vector<KernelInput>& kernels, std::map<uint32_t, size_t>& index, uint32_t id,
                        const stream::Record& r) {
  auto it = index.find(id);
  if (it == index.end())
    fail_input(r.where(), "a " + r.type() + " record for kernel " + std::to_string(id) +
                              " before that kernel's kernel record");
  return kernels[it->second];
}

}  // namespace

Workload read_workload(stream::Reader& reader) {
  Workload w;
  std::map<uint32_t, size_t> index;
  stream::Record r;
  while (reader.next(r)) {
    size_t at = w.records.size();
    const std::string& type = r.type();
    if (type == "kernel") {
      KernelInfo k = stream::decode<KernelInfo>(r);
      if (index.count(k.id)) fail_input(r.where(), "kernel " + std::to_string(k.id) + " appears twice");
      index[k.id] = w.kernels.size();
      w.kernels.push_back(KernelInput{k, {}, {}, {}, {}, at});
    } else if (type == "insts") {
      InstTable t = stream::decode<InstTable>(r);
      KernelInput& k = kernel_for(w.kernels, index, t.kernel_id, r);
      if (t.first != k.table.size())
        fail_input(r.where(), "insts slice starts at " + std::to_string(t.first) + ", expected " +
                                  std::to_string(k.table.size()));
      k.table.insert(k.table.end(), t.insts.begin(), t.insts.end());
      k.last_record = at;
    } else if (type == "cta") {
      CtaTrace c = stream::decode<CtaTrace>(r);
      KernelInput& k = kernel_for(w.kernels, index, c.kernel_id, r);
      stream::validate_cta(c, k.table, r.where());
      k.ctas.push_back(std::move(c));
      k.last_record = at;
    } else if (type == "cache") {
      KernelCacheModel c = stream::decode<KernelCacheModel>(r);
      KernelInput& k = kernel_for(w.kernels, index, c.kernel_id, r);
      k.cache = std::move(c);
      k.last_record = at;
    } else if (type == "sched") {
      KernelSchedule s = stream::decode<KernelSchedule>(r);
      KernelInput& k = kernel_for(w.kernels, index, s.kernel_id, r);
      k.sched = std::move(s);
      k.last_record = at;
    }
    w.records.push_back(std::move(r));
  }
  if (w.kernels.empty())
    fail_input(reader.name(), "the stream holds no kernel records: nothing to simulate");
  return w;
}

}  // namespace sasskit::pipesim
