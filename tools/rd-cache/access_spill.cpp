#include "access_spill.hpp"

namespace sasskit::rdcache {

namespace {

// Varints written through a pointer into room made once per warp
// (ByteSink::put_varint), where ByteSink's own appends check the room at
// every value.
struct VarintOut {
  char* at;
  void varint(uint64_t v) { at = archive::ByteSink::put_varint(at, v); }
  void svarint(int64_t v) { varint(archive::zigzag(v)); }
};
constexpr size_t kMostVarintBytes = archive::ByteSink::kMaxVarintBytes;

}  // namespace

// Per warp: its memory instructions; per memory
// instruction: the gap to its position from the one before's, its table
// entry, its lines; per line: the difference from the warp's line before
// (0 before the first) and the sector mask.
void AccessSpill::encode(const CtaAccesses& cta, std::string& bytes) {
  bytes.resize(kMostVarintBytes);
  VarintOut out{bytes.data()};
  out.varint(cta.warps.size());
  bytes.resize(out.at - bytes.data());
  for (const WarpAccesses& w : cta.warps) {
    const size_t used = bytes.size();
    bytes.resize(used + kMostVarintBytes * (1 + 3 * w.mem_insts() + 2 * w.lines.size()));
    out.at = bytes.data() + used;
    out.varint(w.mem_insts());
    uint32_t next_pos = 0;
    uint64_t line = 0;
    for (size_t k = 0; k < w.mem_insts(); ++k) {
      out.varint(w.pos[k] - next_pos);
      next_pos = w.pos[k] + 1;
      out.varint(w.inst[k]);
      out.varint(w.line_begin[k + 1] - w.line_begin[k]);
      for (uint32_t l = w.line_begin[k]; l < w.line_begin[k + 1]; ++l) {
        out.svarint(static_cast<int64_t>(w.lines[l].line - line));
        line = w.lines[l].line;
        out.varint(w.lines[l].mask);
      }
    }
    bytes.resize(out.at - bytes.data());
  }
}

void AccessSpill::load(size_t index, uint32_t linear, CtaAccesses& out) const {
  thread_local std::string bytes;
  file_.read_near(index, bytes);
  archive::ByteSource in(bytes, "spill file", "damaged");  // short strings: no allocation per CTA
  out.linear = linear;
  out.warps.resize(in.varint());
  for (WarpAccesses& w : out.warps) {
    const size_t mem_insts = in.varint();
    w.pos.resize(mem_insts);
    w.inst.resize(mem_insts);
    w.line_begin.assign(mem_insts + 1, 0);
    w.lines.clear();
    uint32_t next_pos = 0;
    uint64_t line = 0;
    for (size_t k = 0; k < mem_insts; ++k) {
      w.pos[k] = next_pos + static_cast<uint32_t>(in.varint());
      next_pos = w.pos[k] + 1;
      w.inst[k] = static_cast<uint32_t>(in.varint());
      for (uint64_t l = in.varint(); l > 0; --l) {
        line += static_cast<uint64_t>(in.svarint());
        w.lines.push_back(LineAccess{line, static_cast<uint32_t>(in.varint())});
      }
      w.line_begin[k + 1] = static_cast<uint32_t>(w.lines.size());
    }
  }
}

}  // namespace sasskit::rdcache
