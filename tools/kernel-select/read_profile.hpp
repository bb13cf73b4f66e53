// Profile readers. Text input is CSV whose layout is detected from its
// header line; binary input is the sasskit stream.
#pragma once

#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "csv_input.hpp"
#include "formats/stream.hpp"
#include "profile.hpp"

namespace sasskit::kselect {

// True when `in` starts with a msgpack map (a sasskit stream header).
bool looks_like_stream(std::istream& in);

// Reads a CSV profile: nsys stats (cuda_gpu_trace, cuda_kern_exec_trace),
// ncu --csv (details or raw page), plain "id,name,duration[,...]" or the wide
// one-column-per-kernel layout. An unknown layout is a BadInput error naming
// the columns found; so are an empty input and fewer than two invocations.
Profile read_csv_profile(std::istream& in, const std::string& name);

// Reads the kernel and cta records of a stream, handing every record to
// `pass` as it is read. Durations are warp instructions counted from the
// cta records (the kernel record carries no time).
Profile read_stream_profile(stream::Reader& reader,
                            const std::function<void(const stream::Record&)>& pass);

// The layouts, called once the header line is known.
void read_nsys(CsvInput& csv, const std::vector<std::string>& header, Profile& p);
void read_ncu(CsvInput& csv, const std::vector<std::string>& header, Profile& p);
void read_plain(CsvInput& csv, const std::vector<std::string>& header, Profile& p);
void read_wide(CsvInput& csv, const std::vector<std::string>& header, Profile& p);
bool is_nsys_header(const std::vector<std::string>& header);
bool is_ncu_header(const std::vector<std::string>& header);
bool is_plain_header(const std::vector<std::string>& header);

// Fails unless `p` holds at least two invocations to sample from.
void require_invocations(const Profile& p);

}  // namespace sasskit::kselect
