// The header of a kernel-N.traceg: "-field = value" lines and comments
// (formats/ACCELSIM.md, "Header").
#include <array>

#include "formats/accelsim_text.hpp"

namespace sasskit::accelsim::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

template <class T>
T dec_value(const Place& at, std::string_view field, std::string_view v) {
  T out{};
  if (!parse_dec(v, out))
    expected(at, "a decimal number for '-" + std::string(field) + "'", quoted(v));
  return out;
}

uint64_t hex_value(const Place& at, std::string_view field, std::string_view v) {
  uint64_t out = 0;
  if (!parse_hex(v, out))
    expected(at, "a hexadecimal address for '-" + std::string(field) + "'", quoted(v));
  return out;
}

Dim3 dim_value(const Place& at, std::string_view field, std::string_view v) {
  Dim3 d;
  std::array<uint32_t*, 3> parts{&d.x, &d.y, &d.z};
  std::string_view rest = v;
  bool ok = rest.size() > 2 && rest.front() == '(' && rest.back() == ')';
  if (ok) rest = rest.substr(1, rest.size() - 2);
  for (size_t i = 0; ok && i < 3; ++i) {
    size_t comma = i < 2 ? rest.find(',') : rest.size();
    ok = comma != std::string_view::npos && parse_dec(trim(rest.substr(0, comma)), *parts[i]);
    if (ok) rest = i < 2 ? rest.substr(comma + 1) : std::string_view();
  }
  if (!ok) expected(at, "(X,Y,Z) for '-" + std::string(field) + "'", quoted(v));
  return d;
}

enum Field {
  kName, kId, kGrid, kBlock, kShmem, kNregs, kBinaryVersion, kStream, kShmemBase, kLocalBase,
  kNvbit, kTracerVersion, kLineinfo, kFieldCount
};

// In the order the tracer writes them (tracer_tool.cu, enter_kernel_launch).
// Tracer version 3 has no lineinfo line.
constexpr std::array<std::string_view, kFieldCount> kNames{
    "kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs", "binary version",
    "cuda stream id", "shmem base_addr", "local mem base_addr", "nvbit version",
    "accelsim tracer version", "enable lineinfo"};
constexpr bool required(int field) { return field != kLineinfo; }

void set_field(KernelInfo& k, int field, const Place& at, std::string_view v) {
  std::string_view name = kNames[field];
  switch (field) {
    case kName: k.name = v; break;
    case kId: k.id = dec_value<uint32_t>(at, name, v); break;
    case kGrid: k.grid = dim_value(at, name, v); break;
    case kBlock: k.block = dim_value(at, name, v); break;
    case kShmem: k.shmem = dec_value<uint32_t>(at, name, v); break;
    case kNregs: k.nregs = dec_value<uint32_t>(at, name, v); break;
    case kBinaryVersion: k.binary_version = dec_value<uint32_t>(at, name, v); break;
    case kStream: k.stream_id = dec_value<uint64_t>(at, name, v); break;
    case kShmemBase: k.shmem_base = hex_value(at, name, v); break;
    case kLocalBase: k.local_base = hex_value(at, name, v); break;
    case kNvbit: k.nvbit_version = v; break;
    case kTracerVersion:
      if (!parse_dec(v, k.tracer_version) || k.tracer_version < 3 || k.tracer_version > 5)
        expected(at, "accelsim tracer version 3, 4 or 5", quoted(v));
      break;
    case kLineinfo:
      if (v != "0" && v != "1") expected(at, "0 or 1 for '-enable lineinfo'", quoted(v));
      k.lineinfo = v == "1";
      break;
  }
}

}  // namespace

LineLayout layout_of(const KernelInfo& k) {
  LineLayout layout{k.lineinfo, k.tracer_version >= 5};
  for (const auto& c : k.comments)
    if (c.find("immediate") != std::string::npos) layout.immediate = true;
  return layout;
}

bool is_header_line(std::string_view line) {
  if (line.empty()) return true;
  if (line[0] == '-') return true;
  return line[0] == '#' && !line.starts_with("#BEGIN_TB") && !line.starts_with("#END_TB");
}

HeaderParser::HeaderParser(const std::string& path) : path_(path) {}

void HeaderParser::add(std::string_view line, uint64_t number) {
  Place at{path_, number};
  line = trim(line);
  if (line.empty()) return;
  if (line[0] == '#') {
    k_.comments.emplace_back(line);
    return;
  }
  size_t eq = line.find('=');
  if (eq == std::string_view::npos) expected(at, "a header line '-FIELD = VALUE'", quoted(line));
  std::string_view field = trim(line.substr(1, eq - 1));
  std::string_view value = trim(line.substr(eq + 1));
  for (int i = 0; i < kFieldCount; ++i) {
    if (kNames[i] != field) continue;
    if (seen_ & (1u << i))
      expected(at, "one '-" + std::string(field) + "' line", "a second one");
    seen_ |= 1u << i;
    set_field(k_, i, at, value);
    return;
  }
  expected(at, "a known header field (such as '-kernel name', '-grid dim')", quoted(line));
}

KernelInfo HeaderParser::finish(const Place& at, std::string_view found) {
  for (int i = 0; i < kFieldCount; ++i)
    if (required(i) && !(seen_ & (1u << i)))
      expected(at, "header line '-" + std::string(kNames[i]) + " = ...'",
               found.empty() ? "end of file" : quoted(found));
  return k_;
}

void check_header_text(const KernelInfo& k) {
  const std::string where = "kernel " + std::to_string(k.id);
  auto single_line = [&](std::string_view what, std::string_view text) {
    if (has_control_character(text))
      fail_input(where, std::string(what) + " holds a control character (a line break would inject lines "
                        "into the Accel-Sim text)");
  };
  single_line("the kernel name", k.name);
  single_line("the nvbit version", k.nvbit_version);
  for (const auto& c : k.comments) {
    single_line("a header comment", c);
    if (!c.starts_with('#')) fail_input(where, "a header comment does not start with '#'");
  }
}

void append_header(std::string& out, const KernelInfo& k) {
  auto dim = [&](const Dim3& d) {
    out += '(';
    append_dec(out, d.x);
    out += ',';
    append_dec(out, d.y);
    out += ',';
    append_dec(out, d.z);
    out += ")\n";
  };
  out += "-kernel name = " + k.name + "\n-kernel id = ";
  append_dec(out, k.id);
  out += "\n-grid dim = ";
  dim(k.grid);
  out += "-block dim = ";
  dim(k.block);
  out += "-shmem = ";
  append_dec(out, k.shmem);
  out += "\n-nregs = ";
  append_dec(out, k.nregs);
  out += "\n-binary version = ";
  append_dec(out, k.binary_version);
  out += "\n-cuda stream id = ";
  append_dec(out, k.stream_id);
  out += "\n-shmem base_addr = 0x";
  append_hex(out, k.shmem_base, 16);
  out += "\n-local mem base_addr = 0x";
  append_hex(out, k.local_base, 16);
  out += "\n-nvbit version = " + k.nvbit_version + "\n-accelsim tracer version = ";
  append_dec(out, k.tracer_version);
  out += '\n';
  if (k.tracer_version >= 4 || k.lineinfo)
    out += k.lineinfo ? "-enable lineinfo = 1\n" : "-enable lineinfo = 0\n";
  // Blank lines as the tracer and post-traces-processing leave them.
  for (const auto& c : k.comments) out += "\n" + c + "\n";
  out += "\n\n";
}

}  // namespace sasskit::accelsim::detail
