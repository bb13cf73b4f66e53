#include "formats/accelsim_line.hpp"

namespace sasskit::accelsim::detail {
namespace {

uint64_t lane(const AccessAddresses& a, unsigned i) {
  return a.affine ? a.lanes[0] + a.stride * i : a.lanes[i];
}

// Mode 1: nullptr unless the lanes are a base and a stride over a run.
char* put_base_stride(char* out, uint32_t mask, unsigned lanes, const AccessAddresses& a,
                      const uint64_t*& extra) {
  const uint64_t base = lanes == 0 ? *extra++ : a.lanes[0];
  const uint64_t stride = lanes <= 1 ? *extra++ : a.affine ? a.stride : a.lanes[1] - a.lanes[0];
  if (lanes >= 2 && !contiguous_lanes(mask)) return nullptr;
  for (unsigned i = 2; !a.affine && i < lanes; ++i)
    if (a.lanes[i] != base + i * stride) return nullptr;
  out = put_text(out, " 1 0x");
  out = put_hex(out, base);
  *out++ = ' ';
  return put_dec(out, static_cast<int64_t>(stride));
}

}  // namespace

RenderedInst render(const StaticInst& inst) {
  RenderedInst r;
  std::string& t = r.text;
  if (inst.line) {
    append_dec(t, *inst.line);
    t += ' ';
  }
  append_hex(t, inst.pc, 4);
  t += ' ';
  r.mask_at = t.size();
  t += "ffffffff";
  auto registers = [&](const std::vector<uint16_t>& regs) {
    t += ' ';
    append_dec(t, regs.size());
    for (uint16_t reg : regs) {
      t += " R";
      append_dec(t, reg);
    }
  };
  registers(inst.dst);
  t += ' ';
  t += inst.opcode;
  registers(inst.src);
  t += ' ';
  append_dec(t, inst.mem_width);
  r.memory = inst.mem_width > 0;
  r.addresses_at = t.size();
  if (inst.imm) t += " " + *inst.imm;
  t += " \n";
  r.size = t.size();
  if (!r.memory) r.addresses_at = r.size;
  t.append(kCopySlack, '\0');
  return r;
}

char* put_addresses(char* out, uint32_t mask, AddrMode mode, const AccessAddresses& a,
                    const uint64_t*& extra) {
  const unsigned lanes = active_lanes(mask);
  switch (mode) {
    case AddrMode::List:
      out = put_text(out, " 0");
      for (unsigned i = 0; i < lanes; ++i) {
        out = put_text(out, " 0x");
        out = put_hex(out, lane(a, i), 16);
      }
      return out;
    case AddrMode::BaseStride:
      return put_base_stride(out, mask, lanes, a, extra);
    case AddrMode::BaseDelta:
      out = put_text(out, " 2 0x");
      out = put_hex(out, lanes == 0 ? *extra++ : a.lanes[0]);
      for (unsigned i = 1; i < lanes; ++i) {
        *out++ = ' ';
        out = put_dec(out, static_cast<int64_t>(lane(a, i) - lane(a, i - 1)));
      }
      return out;
  }
  return nullptr;
}

std::string refused_addresses(uint32_t mask, AddrMode mode) {
  if (mode != AddrMode::BaseStride)
    return "expected address mode 0, 1 or 2, found " + std::to_string(unsigned(mode));
  std::string text = "expected addresses that address mode 1 (base+stride) can write, found mask ";
  append_hex(text, mask, 8);
  return text + " with irregular addresses";
}

}  // namespace sasskit::accelsim::detail
