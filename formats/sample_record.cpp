#include "formats/sample_record.hpp"

#include "formats/msgpack_map.hpp"
#include "formats/msgpack_pack.hpp"

namespace sasskit::stream {

void RecordCodec<KernelSample>::pack(Packer& pk, const KernelSample& s) {
  pk.pack_map(9);
  pack_type(pk, type);
  pack_field(pk, "kernel", s.kernel_id);
  pack_field(pk, "selection", s.selection);
  pack_field(pk, "sms", s.sms);
  pack_field(pk, "ctas", s.ctas);
  pack_field(pk, "predicted_cycles", s.predicted_cycles);
  pack_field(pk, "kernel_insts", s.kernel_insts);
  pack_field(pk, "sample_insts", s.sample_insts);
  pack_field(pk, "kernel_ctas", s.kernel_ctas);
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
