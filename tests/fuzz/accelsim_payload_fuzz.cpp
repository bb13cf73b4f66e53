// libFuzzer target: a stream's CTAs written as Accel-Sim text straight from
// their compact payloads (KernelTraceWriter::cta(Dim3, payload)), as
// trace-unpack --to accelsim writes them, against the decoder's way (decode,
// validate_cta, cta(CtaTrace)): a CTA the payload path writes must be one the
// decoder's way writes, with the same text; one it leaves goes that way.
// Likewise the CTA's instructions by unit counted from the payload
// (count_payload_units, as cta-sample and pipe-sim count them): a count
// must be the decoded warps' count, and a payload it refuses one the
// decoder refuses with the same message.
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "formats/accelsim.hpp"
#include "formats/cta_payload.hpp"
#include "formats/kernel_stream.hpp"
#include "fuzz_input.hpp"

namespace {
using namespace sasskit;

class TwoWriters : public stream::KernelHandler {
 public:
  void begin_kernel(const stream::Kernel& k, const stream::Record&) override {
    payload_text_.str("");
    decoded_text_.str("");
    payload_ = std::make_unique<accelsim::KernelTraceWriter>(payload_text_, k.info());
    decoded_ = std::make_unique<accelsim::KernelTraceWriter>(decoded_text_, k.info());
  }
  void insts(const stream::Kernel&, const InstTable& slice, const stream::Record&) override {
    payload_->insts(slice);
    decoded_->insts(slice);
  }
  void cta(const stream::Kernel& k, const stream::CtaRecord& c) override {
    const std::optional<std::string_view> payload = stream::cta_payload(c.record());
    std::optional<UnitCounts> counted;
    std::optional<std::string> count_error;
    if (payload) {
      try {
        UnitCounts units{};
        if (stream::count_payload_units(*payload, c.record().where(), k.table(), unit_of(k.table().size()), units))
          counted = units;
      } catch (const Error& e) {
        count_error = e.what();
      }
    }
    const bool written = payload && !count_error && payload_->cta(c.cta(), *payload);
    std::optional<CtaTrace> trace;
    try {
      trace = c.decode();
      decoded_->cta(*trace);
    } catch (const Error& e) {
      if (written || counted) std::abort();  // the payload path took a CTA the decoder's way refuses
      if (count_error && *count_error != e.what()) std::abort();
      throw;
    }
    if (count_error) std::abort();
    if (counted && *counted != count_units(trace->warps, [&](uint32_t i) { return unit_of_[i]; })) std::abort();
    if (!written) payload_->cta(*trace);
    if (payload_text_.str() != decoded_text_.str()) std::abort();
  }

 private:
  // Some unit class for each table entry, the same on both paths.
  const std::vector<UnitClass>& unit_of(size_t entries) {
    while (unit_of_.size() < entries) unit_of_.push_back(static_cast<UnitClass>(unit_of_.size() * 5 % kUnitClasses));
    return unit_of_;
  }

  std::vector<UnitClass> unit_of_;
  std::ostringstream payload_text_, decoded_text_;
  std::unique_ptr<accelsim::KernelTraceWriter> payload_, decoded_;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto in = sasskit::fuzz::stream(data, size);
  return sasskit::fuzz::refuse_or_parse([&] {
    sasskit::stream::Reader reader(in, "fuzz");
    TwoWriters writers;
    sasskit::stream::read_kernels(reader, writers);
  });
}
