// Comma-separated values as spreadsheets and profilers write them (RFC 4180
// quoting; a field never spans lines), shared by every CSV reader and writer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sasskit {

// Splits one line into `fields` (reusing their storage). Strips a trailing
// '\r'. Returns false when a quoted field is not closed.
bool split_csv_line(std::string_view line, std::vector<std::string>& fields);

// The field as written in CSV: quoted when it holds a comma, quote or
// leading/trailing space.
std::string csv_field(std::string_view value);

// Strips a UTF-8 byte order mark from the start of `line`.
std::string_view strip_bom(std::string_view line);

}  // namespace sasskit
