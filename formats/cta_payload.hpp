// The compact body of a stream cta record (formats/STREAM.md, cta, format
// 2.0): one binary payload per thread block, self-contained (no state
// shared between records, so a filter may drop any CTA) and decodable
// without the kernel's instruction table (it lists where the memory
// instructions are). Addresses use the archive's lane
// codec (formats/archive_lanes.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/trace.hpp"

namespace sasskit::stream {

// The payload of `warps`, whose memory instructions `table` (the kernel's
// instruction table) names; the warps must pass validate_cta against it.
std::string encode_warps(const std::vector<WarpTrace>& warps, const std::vector<StaticInst>& table);

// The warps of a payload. BadInput at `where` ("damaged cta record: ...")
// for anything that is not exactly what encode_warps writes; no count
// allocates beyond what the payload's bytes can hold.
std::vector<WarpTrace> decode_warps(std::string_view payload, const std::string& where);

}  // namespace sasskit::stream
