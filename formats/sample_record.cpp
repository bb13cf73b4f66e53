#include "formats/sample_record.hpp"

#include "formats/msgpack_map.hpp"

namespace sasskit::stream {

void RecordCodec<KernelSample>::pack(Packer& pk, const KernelSample& s) {
  pk.pack_map(9);
  pk.pack(std::string("t")); pk.pack(std::string(type));
  pk.pack(std::string("kernel")); pk.pack(s.kernel_id);
  pk.pack(std::string("selection")); pk.pack(s.selection);
  pk.pack(std::string("sms")); pk.pack(s.sms);
  pk.pack(std::string("ctas")); pk.pack(s.ctas);
  pk.pack(std::string("predicted_cycles")); pk.pack(s.predicted_cycles);
  pk.pack(std::string("kernel_insts")); pk.pack(s.kernel_insts);
  pk.pack(std::string("sample_insts")); pk.pack(s.sample_insts);
  pk.pack(std::string("kernel_ctas")); pk.pack(s.kernel_ctas);
}

KernelSample RecordCodec<KernelSample>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelSample s;
  s.kernel_id = m.get<uint32_t>("kernel");
  s.selection = m.get<std::string>("selection");
  s.sms = m.get<std::vector<uint32_t>>("sms");
  s.ctas = m.get<std::vector<uint32_t>>("ctas");
  s.predicted_cycles = m.get<std::vector<double>>("predicted_cycles");
  s.kernel_insts = m.get<uint64_t>("kernel_insts");
  s.sample_insts = m.get<uint64_t>("sample_insts");
  s.kernel_ctas = m.get<uint32_t>("kernel_ctas");
  if (s.sample_insts > s.kernel_insts)
    fail_input(r.where(), "sample_insts exceeds kernel_insts");
  return s;
}

}  // namespace sasskit::stream
