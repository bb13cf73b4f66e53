#include <gtest/gtest.h>

#include <sstream>

#include "formats/cta_log.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "libcommon/diag.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;

namespace {

template <class T>
T round_trip(const T& value) {
  std::ostringstream out;
  stream::Writer w(out, "t", stream::Header{}, stream::Stage{"t", "0", {}});
  w.write(value);
  w.finish();
  std::istringstream in(out.str());
  stream::Reader r(in, "t");
  stream::Record rec;
  EXPECT_TRUE(r.next(rec));
  EXPECT_EQ(rec.type(), stream::RecordCodec<T>::type);
  return stream::decode<T>(rec);
}

using sasskit::test::error_of;

const char* kIssueConfig =
    "# traced on a real GPU\n"
    "-trace_issued_sms_num 2\n"
    "-trace_issued_sms_vector 0,2\n"
    "-trace_issued_sm_id_0 3,0,(1,0,a0),(1,2,b0),(2,1,100),\n"
    "-trace_issued_sm_id_2 2,2,(1,1,a8),(2,0,f0),\n";

}  // namespace

TEST(SchedRecord, RoundTrips) {
  KernelSchedule s{4, "greedy", {0, 3, 1}, {0, 0, 17}, 250};
  EXPECT_EQ(round_trip(s), s);
}

TEST(SampleRecord, RoundTrips) {
  KernelSample s{4, "top", {3, 1}, {1, 2, 5}, {10.5, 99, 0, 120.25}, 1000, 420, 6};
  EXPECT_EQ(round_trip(s), s);
}

TEST(SampleRecord, CarriesModelPerSmInstructionsAndError) {
  KernelSample s{2, "max", {0}, {0, 2}, {53, 13}, 240, 200, 3};
  s.sm_insts = {200, 40};
  s.sampling_error = -0.036;
  s.gpu = "QV100";
  EXPECT_EQ(round_trip(s), s);
  KernelSample old{2, "max", {0}, {0, 2}, {53, 13}, 240, 200, 3};  // a 2.0 record: no estimate
  EXPECT_EQ(round_trip(old), old);
}

TEST(SampleRecord, RefusesPerSmColumnsOfDifferentLengths) {
  KernelSample s{2, "max", {0}, {0, 2}, {53, 13}, 240, 200, 3};
  s.sm_insts = {200};
  EXPECT_THROW(round_trip(s), Error);
}

TEST(SampleRecord, CarriesItsCheckSmWhichMustBeKept) {
  KernelSample s{2, "max", {0, 1}, {0, 2}, {53, 13}, 240, 240, 3};
  s.check_sm = 1;
  EXPECT_EQ(round_trip(s), s);
  s.check_sm = 2;  // not one of the kept SMs
  EXPECT_THROW(round_trip(s), Error);
}

TEST(SchedRecord, NamesItsGpuModel) {
  KernelSchedule s{4, "greedy", {0, 3, 1}, {0, 0, 17}, 250, "QV100"};
  EXPECT_EQ(round_trip(s), s);
}

TEST(CtaLog, ReadsHyfissIssueConfig) {
  std::istringstream in(kIssueConfig);
  const CtaLog log = CtaLog::parse_issue_config(in, "issue.config");
  const KernelSchedule k1 = log.schedule(1, 3, 4);
  EXPECT_EQ(k1.policy, "replay:issue.config");
  EXPECT_EQ(k1.sm, (std::vector<uint32_t>{0, 2, 0}));
  EXPECT_EQ(k1.start, (std::vector<uint64_t>{0, 8, 16}));  // hex clocks a0, a8, b0
  EXPECT_EQ(k1.launch, 0u);
  const KernelSchedule k2 = log.schedule(2, 2, 4);
  EXPECT_EQ(k2.sm, (std::vector<uint32_t>{2, 0}));
  EXPECT_EQ(k2.launch, 0xf0u - 0xa0u);
  EXPECT_EQ(k2.start, (std::vector<uint64_t>{0, 0x10}));
}

TEST(CtaLog, ReadsUntimedTuplesOfOlderHyfissTracers) {
  std::istringstream in("-trace_issued_sm_id_1 2,1,(1,1),(1,0),\n");
  const KernelSchedule k = CtaLog::parse_issue_config(in, "old").schedule(1, 2, 2);
  EXPECT_EQ(k.sm, (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(k.start, (std::vector<uint64_t>{0, 0}));
}

TEST(CtaLog, ReadsCsvWithOrWithoutHeader) {
  std::istringstream in("kernel,cta,sm,clock\n1,1,3,120\n1,0,0,100 # first\n");
  const KernelSchedule k = CtaLog::parse_csv(in, "log.csv").schedule(1, 2, 4);
  EXPECT_EQ(k.sm, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(k.start, (std::vector<uint64_t>{0, 20}));
}

TEST(CtaLog, RejectsSmsTheModelLacksMissingAndDuplicateCtas) {
  std::istringstream in(kIssueConfig);
  const CtaLog log = CtaLog::parse_issue_config(in, "issue.config");
  EXPECT_EQ(error_of([&] { log.schedule(1, 3, 2); }),
            "issue.config:5: kernel 1 CTA 1 ran on SM 2, but the GPU model has 2 SMs (0-1)");
  EXPECT_EQ(error_of([&] { log.schedule(1, 4, 4); }),
            "issue.config: kernel 1: 1 of its 4 CTAs are missing from the log (first: CTA 3)");
  EXPECT_EQ(error_of([&] { log.schedule(2, 1, 4); }),
            "issue.config:4: kernel 2 has 1 CTAs; CTA 1 is beyond its grid");
  EXPECT_EQ(error_of([&] { log.schedule(9, 1, 4); }), "issue.config: no CTA of kernel 9 in the replay log");
  std::istringstream dup("1,0,0,5\n1,0,1,6\n");
  const CtaLog d = CtaLog::parse_csv(dup, "d.csv");
  EXPECT_EQ(error_of([&] { d.schedule(1, 1, 4); }),
            "d.csv:2: kernel 1 CTA 0 is logged twice (first at line 1)");
}

TEST(CtaLog, BadLinesNameTheLine) {
  std::istringstream csv("1,0,0,5\n1,zero,0,6\n");
  EXPECT_NE(error_of([&] { CtaLog::parse_csv(csv, "x.csv"); }).find("x.csv:2: expected 'kernel,cta,sm,clock'"),
            std::string::npos);
  std::istringstream count("-trace_issued_sm_id_0 3,0,(1,0,a0),\n");
  EXPECT_EQ(error_of([&] { CtaLog::parse_issue_config(count, "i"); }),
            "i:1: the line announces 3 CTAs but lists 1");
  std::istringstream tuple("-trace_issued_sm_id_0 1,0,(1,0,a0,3),\n");
  EXPECT_NE(error_of([&] { CtaLog::parse_issue_config(tuple, "i"); }).find("i:1: expected '(kernel,cta,hex-timestamp)'"),
            std::string::npos);
}
