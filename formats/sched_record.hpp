// The `sched` record (formats/STREAM.md): which SM runs each CTA of a kernel
// and when it starts, as modeled or replayed by cta-sample.
#pragma once

#include "formats/stream.hpp"
#include "libcommon/cta_schedule.hpp"

namespace sasskit::stream {

template <>
struct RecordCodec<KernelSchedule> {
  static constexpr RecordType type = RecordType::Sched;
  static void pack(Packer& pk, const KernelSchedule& s);
  static KernelSchedule unpack(const Record& r);
};

}  // namespace sasskit::stream
