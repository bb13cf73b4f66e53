#include "formats/sched_record.hpp"

#include "formats/msgpack_map.hpp"

namespace sasskit::stream {

void RecordCodec<KernelSchedule>::pack(Packer& pk, const KernelSchedule& s) {
  pk.pack_map(6);
  pk.pack(std::string("t")); pk.pack(std::string(type));
  pk.pack(std::string("kernel")); pk.pack(s.kernel_id);
  pk.pack(std::string("policy")); pk.pack(s.policy);
  pk.pack(std::string("launch")); pk.pack(s.launch);
  pk.pack(std::string("sm")); pk.pack(s.sm);
  pk.pack(std::string("start")); pk.pack(s.start);
}

KernelSchedule RecordCodec<KernelSchedule>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelSchedule s;
  s.kernel_id = m.get<uint32_t>("kernel");
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
