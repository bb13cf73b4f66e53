// Writing a kernel-N.traceg in the post-processed layout (formats/ACCELSIM.md).
#include <algorithm>

#include "formats/accelsim.hpp"
#include "formats/accelsim_line.hpp"
#include "formats/accelsim_text.hpp"
#include "formats/cta_payload.hpp"

namespace sasskit::accelsim {
using namespace detail;

namespace {
constexpr size_t kFlushAt = size_t(1) << 20;
// The longest text of a thread block's or a warp's opening lines.
constexpr size_t kMaxOpening = 64;
}  // namespace

KernelTraceWriter::KernelTraceWriter(std::ostream& out, const KernelInfo& kernel)
    : out_(out), kernel_(kernel) {
  if (kernel.tracer_version < 3 || kernel.tracer_version > 5)
    fail_input("kernel " + std::to_string(kernel.id),
               "expected accelsim tracer version 3, 4 or 5 to write Accel-Sim text, found " +
                   std::to_string(kernel.tracer_version));
  check_header_text(kernel_);
  std::string header;
  append_header(header, kernel_);
  out_.write(header.data(), static_cast<std::streamsize>(header.size()));
}

KernelTraceWriter::~KernelTraceWriter() = default;

void KernelTraceWriter::flush() {
  out_.write(buf_.data(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

char* KernelTraceWriter::grow(size_t size) {
  buf_.resize(std::max(2 * buf_.size(), used_ + size));
  return end();
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
    longest_line_ = std::max(longest_line_, rendered_.back().size + kMaxAddressText + kCopySlack);
  }
}

void KernelTraceWriter::begin_cta(const Dim3& cta) {
  char* p = put_text(room(kMaxOpening), "\n#BEGIN_TB\n\nthread block = ");
  p = put_dec(p, cta.x);
  *p++ = ',';
  p = put_dec(p, cta.y);
  *p++ = ',';
  p = put_dec(p, cta.z);
  *p++ = '\n';
  set_end(p);
}

void KernelTraceWriter::begin_warp(uint32_t warp_id, size_t insts) {
  char* p = put_text(room(kMaxOpening), "\nwarp = ");
  p = put_dec(p, warp_id);
  p = put_text(p, "\ninsts = ");
  p = put_dec(p, insts);
  *p++ = '\n';
  set_end(p);
}

void KernelTraceWriter::end_cta() {
  set_end(put_text(room(kMaxOpening), "\n#END_TB\n"));
  flush();
}

void KernelTraceWriter::cta(const CtaTrace& cta) {
  std::string where = "kernel " + std::to_string(kernel_.id) + " thread block " +
                      std::to_string(cta.cta.x) + "," + std::to_string(cta.cta.y) + "," +
                      std::to_string(cta.cta.z);
  stream::validate_cta(cta, table_, where);
  begin_cta(cta.cta);
  for (const auto& w : cta.warps) {
    begin_warp(w.warp_id, w.inst.size());
    const uint64_t* addrs = w.addrs.data();
    const uint64_t* extra = w.addr_extra.data();
    size_t mem = 0;
    for (size_t i = 0; i < w.inst.size(); ++i) {
      RenderedInst& r = rendered_[w.inst[i]];
      char* p = put_line_start(room(longest_line_), r, w.mask[i]);
      if (r.memory) {
        const AddrMode mode = AddrMode(w.addr_mode[mem++]);
        p = put_addresses(p, w.mask[i], mode, {.lanes = addrs}, extra);
        if (!p) fail_input(where, refused_addresses(w.mask[i], mode));
        addrs += active_lanes(w.mask[i]);
        p = put_line_end(p, r);
      }
      set_end(p);
      if (used_ >= kFlushAt) flush();
    }
  }
  end_cta();
}

bool KernelTraceWriter::cta(const Dim3& cta, std::string_view payload) {
  const size_t start = used_;
  try {
    if (payload_)
      payload_->restart(payload);
    else
      payload_ = std::make_unique<stream::PayloadReader>(payload, "");
    begin_cta(cta);
    while (payload_->next_warp(true)) {
      if (!warp_from_payload(*payload_)) {
        used_ = start;
        return false;
      }
    }
  } catch (const Error&) {
    used_ = start;
    return false;
  }
  end_cta();
  return true;
}

bool KernelTraceWriter::warp_from_payload(stream::PayloadReader& in) {
  const auto inst = in.inst();
  const auto mask = in.mask();
  const auto memory = in.memory();
  begin_warp(in.warp_id(), inst.size());
  // Held in locals: a store through a char pointer would make the compiler
  // reload every member after it.
  RenderedInst* const rendered = rendered_.data();
  const size_t entries = rendered_.size();
  const size_t longest = longest_line_;
  char* base = buf_.data();
  char* limit = base + buf_.size();
  char* p = base + used_;
  uint64_t lanes[32];
  size_t listed = 0;  // memory instructions written
  for (size_t i = 0; i < inst.size(); ++i) {
    if (inst[i] >= entries) return false;
    RenderedInst& r = rendered[inst[i]];
    if (static_cast<size_t>(limit - p) < longest) {
      set_end(p);
      p = grow(longest);
      base = buf_.data();
      limit = base + buf_.size();
    }
    p = put_line_start(p, r, mask[i]);
    if (r.memory) {
      // The payload lists exactly the table's memory instructions
      // (stream::warp_agrees_with, checked as they come).
      if (listed == memory.size() || memory[listed] != i) return false;
      ++listed;
      const stream::PayloadReader::Access a = in.read_access(lanes, true);
      const uint64_t* extra = a.extra.data();
      p = put_addresses(p, mask[i], AddrMode(a.mode), {lanes, a.affine, a.stride}, extra);
      if (!p) return false;
      p = put_line_end(p, r);
    }
    if (static_cast<size_t>(p - base) >= kFlushAt) return false;  // cta(CtaTrace) flushes here
  }
  set_end(p);
  return listed == memory.size();
}

}  // namespace sasskit::accelsim
