// Writing a kernel-N.traceg in the post-processed layout (formats/ACCELSIM.md).
#include "formats/accelsim.hpp"
#include "formats/accelsim_text.hpp"

namespace sasskit::accelsim {
using namespace detail;

namespace {
constexpr size_t kFlushAt = size_t(1) << 20;
}

KernelTraceWriter::KernelTraceWriter(std::ostream& out, const KernelInfo& kernel)
    : out_(out), kernel_(kernel) {
  if (kernel.tracer_version < 3 || kernel.tracer_version > 5)
    fail_input("kernel " + std::to_string(kernel.id),
               "expected accelsim tracer version 3, 4 or 5 to write Accel-Sim text, found " +
                   std::to_string(kernel.tracer_version));
  check_header_text(kernel_);
  append_header(buf_, kernel_);
  flush();
}

KernelTraceWriter::~KernelTraceWriter() = default;

void KernelTraceWriter::flush() {
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void KernelTraceWriter::insts(const InstTable& slice) {
  if (slice.first != table_.size())
    fail_input("kernel " + std::to_string(kernel_.id),
               "expected instruction table entries from index " + std::to_string(table_.size()) +
                   ", found entries from " + std::to_string(slice.first));
  // What the reader expects of every line of this kernel, so that the text
  // reads back into equal records.
  const LineLayout layout = layout_of(kernel_);
  auto with = [](bool b) { return b ? "with" : "without"; };
  for (const auto& inst : slice.insts) {
    if (inst.line.has_value() != layout.lineinfo || inst.imm.has_value() != layout.immediate) {
      std::string pc;
      append_hex(pc, inst.pc, 4);
      fail_input("kernel " + std::to_string(kernel_.id),
                 std::string("expected instructions ") + with(layout.lineinfo) +
                     " a source line and " + with(layout.immediate) +
                     " an immediate (formats/ACCELSIM.md), found PC " + pc + " " +
                     with(inst.line.has_value()) + " a line and " + with(inst.imm.has_value()) +
                     " an immediate");
    }
    table_.push_back(inst);
    rendered_.push_back(render(inst));
  }
}

void KernelTraceWriter::cta(const CtaTrace& cta) {
  std::string block;
  append_dec(block, cta.cta.x);
  block += ',';
  append_dec(block, cta.cta.y);
  block += ',';
  append_dec(block, cta.cta.z);
  const std::string where = "kernel " + std::to_string(kernel_.id) + " thread block " + block;
  stream::validate_cta(cta, table_, where);
  buf_ += "\n#BEGIN_TB\n\nthread block = " + block + "\n";
  for (const auto& w : cta.warps) {
    buf_ += "\nwarp = ";
    append_dec(buf_, w.warp_id);
    buf_ += "\ninsts = ";
    append_dec(buf_, w.inst.size());
    buf_ += '\n';
    const uint64_t* addrs = w.addrs.data();
    const uint64_t* extra = w.addr_extra.data();
    size_t mem = 0;
    for (size_t i = 0; i < w.inst.size(); ++i) {
      const RenderedInst& r = rendered_[w.inst[i]];
      buf_ += r.head;
      append_hex(buf_, w.mask[i], 8);
      buf_ += r.body;
      if (table_[w.inst[i]].mem_width > 0)
        append_addresses(buf_, w.mask[i], AddrMode(w.addr_mode[mem++]), addrs, extra, where);
      buf_ += r.tail;
      buf_ += " \n";  // the tracer ends each instruction line with a space
      if (buf_.size() >= kFlushAt) flush();
    }
  }
  buf_ += "\n#END_TB\n";
  flush();
}

}  // namespace sasskit::accelsim
