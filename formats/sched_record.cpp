#include "formats/sched_record.hpp"

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"

namespace sasskit::stream {

void RecordCodec<KernelSchedule>::pack(Packer& pk, const KernelSchedule& s) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    map("kernel", s.kernel_id);
    if (!s.gpu.empty()) map("gpu", s.gpu);
    map("policy", s.policy);
    map("launch", s.launch);
    map("sm", s.sm);
    map("start", s.start);
  });
}

KernelSchedule RecordCodec<KernelSchedule>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelSchedule s;
  s.kernel_id = m.get<uint32_t>("kernel");
  s.gpu = m.get_or<std::string>("gpu", "");
  s.policy = m.get<std::string>("policy");
  s.launch = m.get_or<uint64_t>("launch", 0);
  s.sm = m.get<std::vector<uint32_t>>("sm");
  s.start = m.get<std::vector<uint64_t>>("start");
  if (s.sm.size() != s.start.size())
    fail_input(r.where(), "sched columns 'sm' and 'start' differ in length (" +
                              std::to_string(s.sm.size()) + " and " +
                              std::to_string(s.start.size()) + ")");
  return s;
}

}  // namespace sasskit::stream
