// Comma-separated values as spreadsheets and profilers write them (RFC 4180
// quoting: a quoted field may hold commas, doubled quotes and line breaks),
// shared by every CSV reader and writer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sasskit {

// Splits one record (a line, or lines joined where a quoted field holds a
// line break) into `fields` (reusing their storage). Strips a trailing
// '\r'. Returns false when a quoted field is not closed.
bool split_csv_line(std::string_view line, std::vector<std::string>& fields);

// Whether a record is inside a quoted field at the end of `line`, given
// whether it was at its start (`open`): then the record goes on with the
// next line. Reads `line` once, with split_csv_line's rules (a quote opens
// a field only at its start).
bool csv_quote_open_after(std::string_view line, bool open);

// The field as written in CSV: quoted when it holds a comma, quote or
// leading/trailing space.
std::string csv_field(std::string_view value);

// Strips a UTF-8 byte order mark from the start of `line`.
std::string_view strip_bom(std::string_view line);

}  // namespace sasskit
