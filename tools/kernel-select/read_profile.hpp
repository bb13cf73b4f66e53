// Profile readers: any profiler export formats/profile.hpp reads, or the
// sasskit stream.
#pragma once

#include <functional>
#include <istream>
#include <string>

#include "formats/profile.hpp"
#include "formats/stream.hpp"
#include "profile.hpp"

namespace sasskit::kselect {

// True when `in` starts with a msgpack map (a sasskit stream header).
bool looks_like_stream(std::istream& in);

// kernel-select's view of a profiler export: per launch its duration in
// elapsed cycles where every launch has them, else its time in ns; PKA's
// features, instructions and grid sizes where the export has them. A
// summary (one row per kernel name), an export of several launches without
// durations (a lone launch may lack one: duration 0) and one without launches
// are BadInput.
Profile from_export(const profile::Profile& src);

using RecordPass = std::function<void(const stream::Record&)>;
using MemberPass = std::function<void(const stream::Header&)>;

// Reads the kernel and cta records of a stream, every member of it, handing
// every record to `pass` as it is read and each member's header after the
// first to `next_member`. Durations are warp instructions counted from the
// cta records (the kernel record carries no time). Kernel ids must differ
// across members: a plan names kernels by id.
Profile read_stream_profile(stream::Reader& reader, const RecordPass& pass,
                            const MemberPass& next_member = [](const stream::Header&) {});

// Fails unless `p` holds at least one invocation.
void require_invocations(const Profile& p);

}  // namespace sasskit::kselect
