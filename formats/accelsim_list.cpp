// kernelslist.g: kernel trace file names and MemcpyHtoD lines, in launch order.
#include <unordered_map>

#include "formats/accelsim.hpp"
#include "formats/accelsim_text.hpp"

namespace sasskit::accelsim {
using namespace detail;

namespace {

Memcpy parse_memcpy(std::string_view line, const Place& at) {
  std::string_view fields[3];
  std::string_view rest = line;
  size_t n = 0;
  for (; n < 3 && !rest.empty(); ++n) {
    size_t comma = rest.find(',');
    fields[n] = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  Memcpy m;
  if (n != 3 || !rest.empty() || !parse_hex(fields[1], m.address) || !parse_dec(fields[2], m.bytes))
    expected(at, "'MemcpyHtoD,0xADDRESS,BYTES'", quoted(line));
  return m;
}

}  // namespace

bool is_plain_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         !has_control_character(name);
}

std::vector<ListEntry> read_kernel_list(std::istream& in, const std::string& path) {
  std::vector<ListEntry> entries;
  // A trace file holds one launch: a file named again would be read again
  // for each line, without bound, and --to accelsim could not write it back.
  std::unordered_map<std::string, uint64_t> line_of_file;
  LineReader lines(in, path);
  std::string_view line;
  while (lines.next(line)) {
    Fields f(line);
    std::string_view text = f.next();
    if (text.empty()) continue;
    Place at{path, lines.number()};
    if (!f.at_end()) expected(at, "one word per line", quoted(line));
    if (text.starts_with("MemcpyHtoD,"))
      entries.emplace_back(parse_memcpy(text, at));
    else if (text.starts_with("kernel") && is_plain_file_name(text)) {
      const auto [first, added] = line_of_file.emplace(text, at.line);
      if (!added)
        fail_input(path, at.line, "trace file " + quoted_input(text) + " is named again (first on line " +
                                      std::to_string(first->second) + "): a trace file holds one launch");
      entries.emplace_back(std::string(text));
    } else
      expected(at, "a kernel trace file name (kernel-N.traceg) or 'MemcpyHtoD,0xADDRESS,BYTES'",
               quoted(text));
  }
  return entries;
}

void write_kernel_list(std::ostream& out, const std::vector<ListEntry>& entries) {
  std::string text;
  for (const auto& e : entries) {
    if (const auto* m = std::get_if<Memcpy>(&e)) {
      text += "MemcpyHtoD,0x";
      append_hex(text, m->address, 16);
      text += ',';
      append_dec(text, m->bytes);
    } else {
      text += std::get<std::string>(e);
    }
    text += '\n';
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace sasskit::accelsim
