#include <gtest/gtest.h>

#include "formats/cache_record.hpp"
#include "formats/plan_record.hpp"
#include "formats/records.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "formats/stats_record.hpp"
#include "record_bytes.hpp"

using namespace sasskit;
using namespace sasskit::stream;

TEST(RecordType, EveryNameReadsBackAsItsType) {
  for (size_t i = 0; i < kRecordTypeNames.size(); ++i) {
    const auto t = static_cast<RecordType>(i);
    EXPECT_EQ(record_type(record_type_name(t)), t) << kRecordTypeNames[i];
  }
  EXPECT_EQ(record_type("future"), RecordType::Other);
  EXPECT_EQ(record_type(""), RecordType::Other);
  EXPECT_EQ(record_type("Stats"), RecordType::Other);  // names are case-sensitive
}

TEST(RecordType, EachCodecWritesTheNameOfItsType) {
  EXPECT_EQ(record_type_name(RecordCodec<Memcpy>::type), "memcpy");
  EXPECT_EQ(record_type_name(RecordCodec<KernelInfo>::type), "kernel");
  EXPECT_EQ(record_type_name(RecordCodec<InstTable>::type), "insts");
  EXPECT_EQ(record_type_name(RecordCodec<CtaTrace>::type), "cta");
  EXPECT_EQ(record_type_name(RecordCodec<KernelSchedule>::type), "sched");
  EXPECT_EQ(record_type_name(RecordCodec<KernelSample>::type), "sample");
  EXPECT_EQ(record_type_name(RecordCodec<KernelCacheModel>::type), "cache");
  EXPECT_EQ(record_type_name(RecordCodec<Plan>::type), "plan");
  EXPECT_EQ(record_type_name(RecordCodec<KernelStats>::type), "stats");
}

TEST(RecordType, ARecordIsTypedWhenRead) {
  const Record known = stream::test::record_with([](auto& map) {
    map.type(RecordType::Sample);
    map("kernel", 3);
  });
  EXPECT_EQ(known.type(), RecordType::Sample);
  EXPECT_EQ(known.type_name(), "sample");
  EXPECT_EQ(known.kernel_id(), 3u);
}
