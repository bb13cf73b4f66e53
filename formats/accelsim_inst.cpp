// One instruction line of Accel-Sim text, read (the writer: accelsim_line.cpp)
// (formats/ACCELSIM.md, "Instruction lines").
#include "formats/accelsim_text.hpp"

namespace sasskit::accelsim::detail {
namespace {

std::string mask_text(uint32_t mask) {
  std::string s = "mask ";
  append_hex(s, mask, 8);
  return s;
}

uint64_t read_hex(Fields& f, const Place& at, const char* what) {
  std::string_view tok;
  uint64_t v = 0;
  if (!f.next_hex(v, tok)) expected(at, what, quoted(tok));
  return v;
}

template <class T>
T read_dec(Fields& f, const Place& at, const char* what) {
  std::string_view tok;
  T v{};
  if (!f.next_dec(v, tok)) expected(at, what, quoted(tok));
  return v;
}

void read_registers(Fields& f, const Place& at, const char* count_what,
                    std::vector<uint16_t>& regs) {
  uint32_t n = read_dec<uint32_t>(f, at, count_what);
  regs.clear();
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view tok;
    uint16_t r = 0;
    if (!f.next_dec(r, tok, 'R'))
      expected(at, "register R<n> (" + std::to_string(i + 1) + " of " + std::to_string(n) + ")",
               quoted(tok));
    regs.push_back(r);
  }
}

size_t count_fields(Fields f) {
  size_t n = 0;
  while (!f.next().empty()) ++n;
  return n;
}

void read_list(Fields& f, const Place& at, uint32_t mask, WarpTrace& w) {
  unsigned lanes = active_lanes(mask);
  for (unsigned i = 0; i < lanes; ++i) {
    std::string_view tok;
    uint64_t a = 0;
    if (!f.next_hex(a, tok))
      expected(at, "a hexadecimal address for each of the " + std::to_string(lanes) +
                       " active lanes (address " + std::to_string(i + 1) + ")",
               quoted(tok));
    w.addrs.push_back(a);
  }
}

void read_base_stride(Fields& f, const Place& at, uint32_t mask, WarpTrace& w) {
  uint64_t base = read_hex(f, at, "a hexadecimal base address");
  int64_t stride = read_dec<int64_t>(f, at, "a decimal stride");
  unsigned lanes = active_lanes(mask);
  if (lanes >= 2 && !contiguous_lanes(mask))
    expected(at, "contiguous active lanes for address mode 1 (base+stride)", mask_text(mask));
  if (lanes == 0) w.addr_extra.push_back(base);
  if (lanes <= 1) w.addr_extra.push_back(static_cast<uint64_t>(stride));
  const size_t first = w.addrs.size();
  w.addrs.resize(first + lanes);
  uint64_t* lane = w.addrs.data() + first;
  for (unsigned i = 0; i < lanes; ++i) lane[i] = base + i * static_cast<uint64_t>(stride);
}

// The deltas of base+delta when the line holds exactly `want` decimal
// deltas and then `trailing` fields, appended as addresses from `base`;
// false, with `f` and `w` untouched, otherwise (read_base_delta then says
// what is wrong). Deltas written as in `memo` are not parsed again; deltas
// parsed are remembered there.
bool read_well_formed_deltas(Fields& f, uint64_t base, size_t want, size_t trailing,
                             WarpTrace& w, DeltaMemo* memo) {
  if (memo && memo->misses >= DeltaMemo::kGiveUp) memo = nullptr;
  if (memo && want > 0 && memo->offsets.size() == want) {
    Fields rest = f;
    if (rest.skip_text(memo->text) && count_fields(rest) == trailing) {
      memo->misses = 0;
      f = rest;
      w.addrs.push_back(base);
      for (uint64_t offset : memo->offsets) w.addrs.push_back(base + offset);
      return true;
    }
  }
  const Fields start = f;
  const char* const text = f.upcoming();
  const size_t had = w.addrs.size();
  uint64_t a = base;
  w.addrs.push_back(a);
  std::string_view tok;
  for (size_t i = 0; i < want; ++i) {
    int64_t delta = 0;
    if (!f.next_dec(delta, tok)) break;
    a += static_cast<uint64_t>(delta);
    w.addrs.push_back(a);
  }
  if (w.addrs.size() - had == want + 1 && count_fields(f) == trailing) {
    if (memo && want > 0) {
      ++memo->misses;
      memo->text.assign(text, static_cast<size_t>(f.position() - text));
      memo->offsets.clear();
      for (size_t i = had + 1; i < w.addrs.size(); ++i) memo->offsets.push_back(w.addrs[i] - base);
    }
    return true;
  }
  f = start;
  w.addrs.resize(had);
  return false;
}

void read_base_delta(Fields& f, const Place& at, const LineLayout& layout, uint32_t mask,
                     WarpTrace& w, DeltaMemo* memo) {
  uint64_t base = read_hex(f, at, "a hexadecimal base address");
  unsigned lanes = active_lanes(mask);
  size_t want = lanes == 0 ? 0 : lanes - 1;
  size_t trailing = layout.immediate ? 1 : 0;
  if (lanes > 0 && read_well_formed_deltas(f, base, want, trailing, w, memo)) return;
  size_t have = count_fields(f);
  if (have != want + trailing) {
    size_t found = have >= trailing ? have - trailing : 0;
    expected(at, std::to_string(want) + " deltas (active lanes - 1, " + mask_text(mask) + ")",
             std::to_string(found));
  }
  if (lanes == 0) {
    w.addr_extra.push_back(base);
    return;
  }
  uint64_t a = base;
  w.addrs.push_back(a);
  for (size_t i = 0; i < want; ++i) {
    a += static_cast<uint64_t>(read_dec<int64_t>(f, at, "a decimal delta"));
    w.addrs.push_back(a);
  }
}

}  // namespace

void parse_head(Fields& f, const Place& at, const LineLayout& layout, StaticInst& inst,
                uint32_t& mask) {
  if (layout.lineinfo)
    inst.line = read_dec<uint32_t>(f, at, "a source line number (lineinfo is enabled)");
  else
    inst.line.reset();
  inst.pc = read_hex(f, at, "a hexadecimal PC");
  std::string_view mask_tok;
  uint64_t m = 0;
  if (!f.next_hex(m, mask_tok) || m > 0xffffffffu)
    expected(at, "a hexadecimal active mask of at most 32 bits", quoted(mask_tok));
  mask = static_cast<uint32_t>(m);
}

void parse_body(Fields& f, const Place& at, StaticInst& inst) {
  read_registers(f, at, "a destination register count", inst.dst);
  std::string_view op = f.next();
  if (op.empty()) expected(at, "an opcode", quoted(op));
  inst.opcode.assign(op);
  read_registers(f, at, "a source register count", inst.src);
  inst.mem_width = read_dec<uint32_t>(f, at, "a memory width in bytes");
}

std::string_view parse_tail(Fields& f, const Place& at, const LineLayout& layout,
                            uint32_t mem_width, uint32_t mask, WarpTrace& w, DeltaMemo* memo) {
  if (mem_width > 0) {
    std::string_view tok = f.next();
    if (tok == "0") read_list(f, at, mask, w);
    else if (tok == "1") read_base_stride(f, at, mask, w);
    else if (tok == "2") read_base_delta(f, at, layout, mask, w, memo);
    else expected(at, "address mode 0, 1 or 2", quoted(tok));
    w.addr_mode.push_back(static_cast<uint8_t>(tok[0] - '0'));
  }
  std::string_view imm;
  if (layout.immediate) {
    imm = f.next();
    if (imm.empty()) expected(at, "an immediate (tracer version 5)", quoted(imm));
  }
  if (!f.at_end()) expected(at, "end of line", quoted(f.next()));
  return imm;
}

}  // namespace sasskit::accelsim::detail
