#include "read_profile.hpp"

#include "libcommon/diag.hpp"

namespace sasskit::kselect {

bool looks_like_stream(std::istream& in) {
  int c = in.peek();
  return c != std::char_traits<char>::eof() && ((c & 0xF0) == 0x80 || c == 0xDE || c == 0xDF);
}

void require_invocations(const Profile& p) {
  if (p.size() == 0) fail_input(p.source, "no kernel invocations found");
  if (p.size() == 1) fail_input(p.source, "only 1 kernel invocation; sampling needs at least 2");
}

Profile read_csv_profile(std::istream& in, const std::string& name) {
  Profile p;
  p.source = name;
  CsvInput csv(in, name);
  if (!csv.next()) fail_input(name, "empty input: expected a CSV header line");
  const std::vector<std::string> header = csv.fields();
  if (is_nsys_header(header)) read_nsys(csv, header, p);
  else if (is_ncu_header(header)) read_ncu(csv, header, p);
  else if (is_plain_header(header)) read_plain(csv, header, p);
  else read_wide(csv, header, p);
  require_invocations(p);
  return p;
}

}  // namespace sasskit::kselect
