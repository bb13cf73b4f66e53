#include "formats/sched_record.hpp"

#include "formats/field_table.hpp"

namespace sasskit::stream {

namespace {

using S = KernelSchedule;

// The record's fields in its order (formats/STREAM.md, sched). A new field
// is a member and a line here.
constexpr Field<S> kFields[] = {
    {"kernel", &S::kernel_id},
    {"gpu", &S::gpu, Need::IfSet},
    {"policy", &S::policy},
    {"launch", &S::launch, Need::Since},
    {"sm", &S::sm},
    {"start", &S::start},
};

}  // namespace

void RecordCodec<KernelSchedule>::pack(Packer& pk, const KernelSchedule& s) {
  pack_map_of(pk, [&](auto& map) {
    map.type(type);
    pack_fields(map, s, kFields);
  });
}

KernelSchedule RecordCodec<KernelSchedule>::unpack(const Record& r) {
  MapView m(r.object(), r.where());
  KernelSchedule s;
  read_fields(m, s, kFields, "sched");
  if (s.sm.size() != s.start.size())
    fail_input(r.where(), "sched columns 'sm' and 'start' differ in length (" +
                              std::to_string(s.sm.size()) + " and " +
                              std::to_string(s.start.size()) + ")");
  return s;
}

}  // namespace sasskit::stream
