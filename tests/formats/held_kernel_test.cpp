// The filter skeleton of formats/held_kernel.hpp: a tool's records about a
// kernel go out ahead of the kernel's held CTAs.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "formats/held_kernel.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::stream;

namespace {

// Kernel `id`: a grid of 2 CTAs, one IADD3, each CTA one warp running it once.
KernelInfo kernel(uint32_t id) {
  return KernelInfo{.id = id, .name = "k" + std::to_string(id), .grid = {2, 1, 1}, .block = {32, 1, 1}};
}

InstTable table(uint32_t id) {
  return InstTable{.kernel_id = id, .first = 0, .insts = {StaticInst{0x10, std::nullopt, "IADD3", {1}, {2}, 0, std::nullopt}}};
}

CtaTrace cta(uint32_t id, uint32_t x) {
  return CtaTrace{.kernel_id = id, .cta = {x, 0, 0}, .warps = {WarpTrace{.warp_id = 0, .inst = {0}, .mask = {1}}}};
}

std::string stream_of(const std::function<void(Writer&)>& body) {
  std::ostringstream out;
  Writer w(out, "test", Header{}, Stage{"test", "0", {}});
  body(w);
  w.finish();
  return out.str();
}

// Names every record it gets: its type, and for a cta record its x.
class LogSink : public Sink<uint32_t> {
 public:
  std::vector<std::string> out;
  void record(const Record& r) override {
    out.push_back(r.type() == stream::RecordType::Cta ? "cta" + std::to_string(decode<CtaTrace>(r).cta.x) : r.type_name());
  }
  void result(const uint32_t& kernel_id) override { out.push_back("result" + std::to_string(kernel_id)); }
  void finish() override { out.push_back("finish"); }
  bool keeps_records() const override { return true; }
};

// Hands the sink a result per kernel at its end; keeps CTAs but `dropped`.
class ResultFirst : public HeldKernelFilter {
 public:
  explicit ResultFirst(LogSink& sink, std::optional<uint64_t> dropped = std::nullopt)
      : HeldKernelFilter(sink, false), sink_(sink), dropped_(dropped) {}

 private:
  void kernel_ends(const Kernel& k) override { sink_.result(k.id()); }
  bool keeps_cta(uint64_t linear) const override { return linear != dropped_; }
  LogSink& sink_;
  std::optional<uint64_t> dropped_;
};

std::vector<std::string> filtered(const std::string& bytes, std::optional<uint64_t> dropped = std::nullopt,
                                  LogSink* into = nullptr) {
  LogSink own;
  LogSink& sink = into ? *into : own;
  std::istringstream in(bytes);
  Reader reader(in, "s");
  ResultFirst filter(sink, dropped);
  read_kernels(reader, filter);
  return sink.out;
}

// Two kernels between copies, the first's sched record after its CTAs.
std::string two_kernels() {
  return stream_of([](Writer& w) {
    w.write(Memcpy{0x100, 8});
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, 1));
    w.write(cta(1, 0));
    w.write(KernelSchedule{1, "greedy", {0, 1}, {0, 0}, 0});
    w.write(kernel(2));
    w.write(table(2));
    w.write(cta(2, 0));
    w.write(Memcpy{0x200, 8});
  });
}

// What ResultFirst passes of two_kernels(), keeping every CTA.
const std::vector<std::string> kTwoKernelsFiltered = {"memcpy", "kernel", "insts",   "result1", "cta1", "cta0",
                                                      "sched",  "kernel", "insts",   "result2", "cta0", "memcpy"};

}  // namespace

TEST(HeldKernel, TheToolsRecordGoesAheadOfTheHeldCtas) {
  const std::string bytes = two_kernels();
  EXPECT_EQ(filtered(bytes), kTwoKernelsFiltered);
  // Held CTAs the tool does not keep are left out; the other records stay.
  EXPECT_EQ(filtered(bytes, 1), (std::vector<std::string>{"memcpy", "kernel", "insts", "result1", "cta0", "sched",
                                                          "kernel", "insts", "result2", "cta0", "memcpy"}));
}

TEST(HeldKernel, AKernelWithoutCtasHoldsNothing) {
  const std::string bytes = stream_of([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(KernelSchedule{1, "greedy", {0, 1}, {0, 0}, 0});
  });
  EXPECT_EQ(filtered(bytes), (std::vector<std::string>{"kernel", "insts", "sched", "result1"}));
}

TEST(HeldKernel, ATruncatedStreamWritesNoneOfTheHeldKernel) {
  const std::string whole = stream_of([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, 0));
    w.write(cta(1, 1));
  });
  const std::string one_cta = stream_of([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, 0));
  });
  // Cut inside the second cta record (just past where the two streams part):
  // the first was read and held.
  const size_t parting = static_cast<size_t>(std::mismatch(whole.begin(), whole.end(), one_cta.begin(), one_cta.end()).first - whole.begin());
  const std::string cut = whole.substr(0, parting + 2);
  LogSink sink;
  EXPECT_THROW(filtered(cut, std::nullopt, &sink), Error);
  EXPECT_EQ(sink.out, (std::vector<std::string>{"kernel", "insts"}));
}

namespace {

// Keeps every kernel held past its end until the next kernel ends, then
// writes the ones before it, each one's result where its CTAs begin (as
// rd-cache does for kernels that share SMs).
class ResultsLater : public HeldKernelFilter {
 public:
  explicit ResultsLater(LogSink& sink) : HeldKernelFilter(sink, false), sink_(sink) {}

 private:
  void kernel_ends(const Kernel& k) override {
    release_held(true);
    waiting_.push_back(k.id());
  }
  bool releases_at_end(const Kernel&) override { return false; }
  void results_due() override {
    sink_.result(waiting_.front());
    waiting_.erase(waiting_.begin());
  }
  LogSink& sink_;
  std::vector<uint32_t> waiting_;
};

}  // namespace

TEST(HeldKernel, KernelsKeptHeldGoOutInOrderWithTheirResultsAheadOfTheirCtas) {
  const std::string bytes = stream_of([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, 1));
    w.write(kernel(2));  // waits behind kernel 1, its first CTA too
    w.write(table(2));
    w.write(cta(2, 1));
    w.write(cta(2, 0));
    w.write(Memcpy{0x200, 8});  // waits behind kernel 2
    w.write(kernel(3));
    w.write(table(3));
    w.write(cta(3, 1));
  });
  LogSink sink;
  std::istringstream in(bytes);
  Reader reader(in, "s");
  ResultsLater filter(sink);
  read_kernels(reader, filter);
  EXPECT_EQ(sink.out, (std::vector<std::string>{"kernel", "insts", "result1", "cta1", "kernel", "insts", "result2",
                                                "cta1", "cta0", "memcpy", "kernel", "insts", "result3", "cta1"}));
}

namespace {

// ResultFirst, but holding its CTA records itself, in batches: each is
// held when the next event of the kernel layer comes (as rd-cache holds a
// batch on one of its threads).
class HoldsLater : public HeldKernelFilter {
 public:
  explicit HoldsLater(LogSink& sink) : HeldKernelFilter(sink, false), sink_(sink) {}

 private:
  bool holds_ctas_later() const override { return true; }
  void cta_read(const Kernel&, const CtaRecord& cta) override { waiting_.emplace_back(cta.record().bytes(), cta.index()); }
  void ctas_due() override {
    for (const auto& [bytes, linear] : waiting_) hold_cta(bytes, linear);
    waiting_.clear();
  }
  void kernel_ends(const Kernel& k) override { sink_.result(k.id()); }
  LogSink& sink_;
  std::vector<std::pair<std::string, uint64_t>> waiting_;
};

}  // namespace

// The sched record comes after kernel 1's CTAs and before they are held.
TEST(HeldKernel, CtasTheToolHoldsLaterKeepTheirPlaceAmongTheRecords) {
  const std::string bytes = two_kernels();
  LogSink later;
  std::istringstream in(bytes);
  Reader reader(in, "s");
  HoldsLater filter(later);
  read_kernels(reader, filter);
  EXPECT_EQ(later.out, filtered(bytes));
  EXPECT_EQ(later.out, kTwoKernelsFiltered);
}
