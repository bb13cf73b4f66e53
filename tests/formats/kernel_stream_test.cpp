#include <gtest/gtest.h>

#include <sstream>

#include "formats/kernel_stream.hpp"
#include "formats/msgpack_pack.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"

using namespace sasskit;
using namespace sasskit::stream;

namespace {

KernelInfo kernel(uint32_t id, Dim3 grid = {2, 2, 1}) {
  KernelInfo k;
  k.id = id;
  k.name = "k" + std::to_string(id);
  k.grid = grid;
  k.block = {32, 1, 1};
  return k;
}

InstTable table(uint32_t kernel_id, uint32_t first = 0) {
  InstTable t;
  t.kernel_id = kernel_id;
  t.first = first;
  t.insts = {StaticInst{0x10, std::nullopt, "IADD3", {1}, {2}, 0, std::nullopt}};
  return t;
}

CtaTrace cta(uint32_t kernel_id, Dim3 where) {
  CtaTrace c;
  c.kernel_id = kernel_id;
  c.cta = where;
  WarpTrace w;
  w.inst = {0, 0};
  w.mask = {1, 3};
  c.warps = {w};
  return c;
}

// A record of a type no tool knows, naming a kernel or not.
void write_unknown(Writer& w, std::optional<uint32_t> kernel_id) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_map(kernel_id ? 2 : 1);
  pack_type(pk, "future");
  if (kernel_id) pack_field(pk, "kernel", *kernel_id);
  w.write(Record(std::string(buf.data(), buf.size()), "test"));
}

std::string member(const std::function<void(Writer&)>& body, const std::string& tool = "test") {
  std::ostringstream out;
  Writer w(out, "test", Header{}, Stage{tool, "0", {}});
  body(w);
  w.finish();
  return out.str();
}

std::string one_kernel(uint32_t id) {
  return member([&](Writer& w) {
    w.write(kernel(id));
    w.write(table(id));
    w.write(cta(id, {1, 1, 0}));
  });
}

// Logs every event as a word, to compare orders.
struct Log : KernelHandler {
  std::vector<std::string> events;
  std::vector<uint64_t> cta_indices;
  std::optional<KernelSchedule> sched;
  void begin_member(const Header& h, size_t m) override {
    events.push_back("member" + std::to_string(m) + ":" + h.provenance.back().tool);
  }
  void end_member(size_t m) override { events.push_back("/member" + std::to_string(m)); }
  void begin_kernel(const Kernel& k, const Record&) override { events.push_back("kernel" + std::to_string(k.id())); }
  void insts(const Kernel& k, const InstTable&, const Record&) override {
    events.push_back("insts" + std::to_string(k.table().size()));
  }
  void cta(const Kernel&, const CtaRecord& c) override {
    events.push_back("cta");
    cta_indices.push_back(c.index());
    EXPECT_EQ(c.decode().warps.size(), 1u);
  }
  void attached(const Kernel& k, const Record& r) override {
    events.push_back(r.type_name());
    sched = k.find<KernelSchedule>();
  }
  void end_kernel(const Kernel& k) override { events.push_back("/kernel" + std::to_string(k.id())); }
  void memcpy(const Record&) override { events.push_back("memcpy"); }
  void other(const Record& r) override { events.push_back(r.type_name()); }
};

Log read_all(const std::string& bytes) {
  std::istringstream in(bytes);
  Reader reader(in, "s");
  Log log;
  read_kernels(reader, log);
  return log;
}

std::string error_of(const std::string& bytes) {
  try {
    read_all(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(KernelStream, HandsEveryRecordOverInOrderWithCtasOneAtATime) {
  Log log = read_all(member([](Writer& w) {
    w.write(Memcpy{0x100, 8});
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, {1, 0, 0}));
    w.write(table(1, 1));
    w.write(cta(1, {0, 1, 0}));
    w.write(KernelSchedule{1, "greedy", {0, 1, 0, 1}, {0, 0, 5, 5}, 0});
    write_unknown(w, 1);
    write_unknown(w, std::nullopt);
  }));
  EXPECT_EQ(log.events, (std::vector<std::string>{"member0:test", "memcpy", "kernel1", "insts1", "cta", "insts2",
                                                   "cta", "sched", "future", "/kernel1", "future", "/member0"}));
  EXPECT_EQ(log.cta_indices, (std::vector<uint64_t>{1, 2}));
  ASSERT_TRUE(log.sched);
  EXPECT_EQ(log.sched->policy, "greedy");
}

TEST(KernelStream, GridIndexIsLinearAndBoundsChecked) {
  EXPECT_EQ(cta_linear_index({1, 2, 3}, {4, 5, 6}, "k", "w"), 1u + 4 * (2 + 5 * 3));
  EXPECT_THROW(cta_linear_index({0, 5, 0}, {4, 5, 6}, "k", "w"), Error);
  const std::string e = error_of(member([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(cta(1, {2, 0, 0}));
  }));
  EXPECT_NE(e.find("CTA (2,0,0) is outside the grid (2,2,1) of kernel 1 (k1)"), std::string::npos) << e;
}

TEST(KernelStream, RefusesASliceThatDoesNotContinueTheTable) {
  const std::string e = error_of(member([](Writer& w) {
    w.write(kernel(1));
    w.write(table(1));
    w.write(table(1, 3));
  }));
  EXPECT_NE(e.find("insts slice starts at entry 3, expected 1"), std::string::npos) << e;
}

TEST(KernelStream, RefusesRecordsOutsideTheirKernel) {
  const std::string early = error_of(member([](Writer& w) { w.write(table(4)); }));
  EXPECT_NE(early.find("before that kernel's kernel record"), std::string::npos) << early;
  const std::string late = error_of(member([](Writer& w) {
    w.write(kernel(1));
    w.write(kernel(2));
    w.write(cta(1, {0, 0, 0}));
  }));
  EXPECT_NE(late.find("Order"), std::string::npos) << late;
  const std::string twice = error_of(member([](Writer& w) {
    w.write(kernel(1));
    w.write(kernel(1));
  }));
  EXPECT_NE(twice.find("appears twice"), std::string::npos) << twice;
}

TEST(KernelStream, ReadsEveryMemberOfAConcatenation) {
  Log log = read_all(one_kernel(1) + member([](Writer& w) { w.write(kernel(1)); }, "second"));
  EXPECT_EQ(log.events, (std::vector<std::string>{"member0:test", "kernel1", "insts1", "cta", "/kernel1",
                                                   "/member0", "member1:second", "kernel1", "/kernel1",
                                                   "/member1"}));
}

TEST(KernelStream, RefusesTrailingBytesAfterTheEndRecord) {
  const std::string e = error_of(one_kernel(1) + std::string("\x01\x02", 2));
  EXPECT_NE(e.find("data that is not a new stream"), std::string::npos) << e;
}

TEST(KernelStream, APlainReaderRefusesASecondMemberRatherThanDropIt) {
  std::istringstream in(one_kernel(1) + one_kernel(2));
  Reader reader(in, "s");
  Record r;
  while (true) {
    try {
      if (!reader.next(r)) break;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("a second stream follows"), std::string::npos) << e.what();
      return;
    }
  }
  FAIL() << "the second member was not noticed";
}

TEST(KernelStream, WriterStartsOneMemberPerInputMember) {
  std::ostringstream out;
  Header first, second;
  first.provenance = {Stage{"gen", "0", {}}};
  second.provenance = {Stage{"other", "0", {}}};
  Writer w(out, "o", first, Stage{"filter", "0", {}});
  w.write(kernel(1));
  w.next_member(second);
  w.write(kernel(1));
  w.finish();
  Log log = read_all(out.str());
  EXPECT_EQ(log.events.front(), "member0:filter");
  EXPECT_EQ(log.events[4], "member1:filter");
  std::istringstream in(out.str());
  Reader reader(in, "o");
  reader.accept_members();
  Record r;
  while (reader.next(r)) {
  }
  ASSERT_TRUE(reader.next_member());
  EXPECT_EQ(reader.header().provenance.front().tool, "other");
  EXPECT_EQ(reader.member(), 1u);
}

TEST(KernelStream, PassingARecordOnNeverDecodesIt) {
  // The cta record's warps field is not an array: only decoding notices.
  msgpack::sbuffer buf;
  Packer pk(buf);
  pk.pack_map(4);
  pack_type(pk, "cta");
  pack_field(pk, "kernel", 1u);
  pack_field(pk, "cta", std::vector<uint32_t>{0, 0, 0});
  pack_field(pk, "warps", std::string("not warps"));
  const Record r(std::string(buf.data(), buf.size()), "here");
  EXPECT_EQ(r.type(), RecordType::Cta);
  EXPECT_EQ(r.kernel_id(), 1u);
  EXPECT_THROW(decode<CtaTrace>(r), Error);
}

namespace {

// A kernel with a sched record made for `gpu` ("" names none), written by
// a cta-sample stage of model `stage_gpu`.
std::string sched_for(const std::string& gpu, const std::string& stage_gpu = "QV100",
                      const std::string& stage_fingerprint = "") {
  std::ostringstream out;
  Writer w(out, "test", Header{}, Stage{"cta-sample", "0", {}, stage_gpu, stage_fingerprint, StageOptions{}});
  w.write(kernel(1));
  KernelSchedule s{1, "greedy", {0, 1, 0, 1}, {0, 0, 5, 5}, 0};
  s.gpu = gpu;
  w.write(s);
  w.finish();
  return out.str();
}

// The same bytes under a 2.0 header, whose records do not name their model.
std::string as_version_2_0(std::string bytes) {
  const std::string version = std::string("\xa5major", 6) + static_cast<char>(sasskit::stream::kMajor) +
                              std::string("\xa5minor", 6) + static_cast<char>(sasskit::stream::kMinor);
  const auto at = bytes.find(version);
  EXPECT_NE(at, std::string::npos);
  bytes[at + 6] = '\x02';
  bytes[at + 13] = '\x00';
  return bytes;
}

std::string model_error(const std::string& bytes, const std::string& gpu, bool accept = false,
                        const std::string& fingerprint = "") {
  std::istringstream in(bytes);
  Reader reader(in, "s");
  reader.expect_gpu({gpu, accept, fingerprint});
  Log log;
  try {
    read_kernels(reader, log);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::BadInput);
    return e.where() + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST(KernelStream, RecordsOfAnotherGpuModelAreRefusedOneByOne) {
  EXPECT_EQ(model_error(sched_for("QV100"), "QV100"), "");
  const std::string e = model_error(sched_for("QV100"), "A100");
  EXPECT_EQ(e.rfind("s: record 2: ", 0), 0u) << e;  // the sched record, after the kernel record
  EXPECT_NE(e.find("this sched record was computed for GPU model QV100, not A100"), std::string::npos) << e;
  EXPECT_EQ(model_error(sched_for("QV100"), "A100", true), "");  // --accept-other-gpu
  // Without an expectation (stall-report) nothing is checked.
  EXPECT_EQ(error_of(sched_for("QV100")), "");
}

TEST(KernelStream, In21ARecordDecidesNotTheProvenance) {
  // A record without gpu passes, whatever the stages say.
  EXPECT_EQ(model_error(sched_for("", "QV100"), "A100"), "");
  EXPECT_EQ(model_error(sched_for("A100", "QV100"), "A100"), "");
}

TEST(KernelStream, Before21TheProvenanceDecides) {
  const std::string old = as_version_2_0(sched_for("", "QV100"));
  const std::string e = model_error(old, "A100");
  EXPECT_NE(e.find("its cta-sample records were computed for GPU model QV100, not A100"), std::string::npos) << e;
  EXPECT_EQ(model_error(old, "QV100"), "");
  EXPECT_EQ(model_error(old, "A100", true), "");
}

// What a read of the stream warned, with its model-error (none expected).
std::string model_warning(const std::string& bytes, const std::string& gpu, bool accept, const std::string& fingerprint) {
  testing::internal::CaptureStderr();
  const std::string error = model_error(bytes, gpu, accept, fingerprint);
  const std::string warned = testing::internal::GetCapturedStderr();
  EXPECT_EQ(error, "");
  return warned;
}

TEST(KernelStream, AModelOfTheSameNameWithOtherValuesIsNamedByItsFingerprint) {
  const std::string made = sched_for("QV100", "QV100", "0123456789abcdef");
  const std::string w = model_warning(made, "QV100", false, "fedcba9876543210");
  EXPECT_NE(w.find("s: warning: "), std::string::npos) << w;  // the member, before any record
  EXPECT_NE(w.find("its cta-sample records were computed for a GPU model QV100 with other values (QV100 "
                   "fingerprint 0123456789abcdef, not this QV100 fingerprint fedcba9876543210); results mix"),
            std::string::npos)
      << w;
  EXPECT_EQ(model_warning(made, "QV100", true, "fedcba9876543210"), "");  // --accept-other-gpu
  EXPECT_EQ(model_warning(made, "QV100", false, "0123456789abcdef"), "");
  // Only where both sides have one: a stage before 2.3, or a reader without a model of its own.
  EXPECT_EQ(model_warning(sched_for("QV100"), "QV100", false, "fedcba9876543210"), "");
  EXPECT_EQ(model_warning(made, "QV100", false, ""), "");
}

TEST(KernelStream, AGpuNameWithAControlCharacterIsNeverEchoed) {
  const std::string e = model_error(sched_for("QV100\nfake: line"), "A100");
  EXPECT_NE(e.find("field 'gpu' holds a control character"), std::string::npos) << e;
  EXPECT_EQ(e.find("fake"), std::string::npos) << e;
}
