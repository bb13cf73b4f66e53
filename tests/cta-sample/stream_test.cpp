#include <gtest/gtest.h>

#include <sstream>

#include "cta_sample.hpp"
#include "formats/sample_record.hpp"
#include "formats/sched_record.hpp"
#include "formats/stream_json.hpp"
#include "libcommon/diag.hpp"
#include "synthetic.hpp"
#include "test_gpu.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::ctasample;

namespace {

stream::Record future_record() {
  msgpack::sbuffer b;
  stream::Packer pk(b);
  pk.pack_map(2);
  pk.pack(std::string("t"));
  pk.pack(std::string("future"));
  pk.pack(std::string("x"));
  pk.pack(42);
  return stream::Record(std::string(b.data(), b.size()), "future");
}

// 8 CTAs of 64 threads on tiny4: all resident at once, CTA i on SM i % 4.
// CTA 5 does 50x the work, so SM 1 (CTAs 1 and 5) is the longest.
// A second insts slice arrives between CTAs, and an unknown record follows.
std::string imbalanced_stream() {
  std::ostringstream out;
  stream::Writer w(out, "in", stream::Header{}, stream::Stage{"test", "0", {}});
  w.write(synthetic_kernel(1, 8, 64));
  InstTable t = synthetic_table(1);
  InstTable tail{1, 3, {t.insts[3]}};
  t.insts.pop_back();
  w.write(t);
  for (uint32_t i = 0; i < 8; ++i) {
    if (i == 2) w.write(tail);
    CtaTrace c = synthetic_cta(1, i, 2, i == 5 ? 500 : 10);
    if (i < 2) {  // EXIT is announced only with the second slice
      for (auto& warp : c.warps) {
        warp.inst.pop_back();
        warp.mask.pop_back();
      }
    }
    w.write(c);
  }
  w.write(future_record());
  w.finish();
  return out.str();
}

struct Output {
  std::vector<std::string> types;
  std::vector<uint32_t> ctas;
  std::optional<KernelSchedule> sched;
  std::optional<KernelSample> sample;
};

Output run_stream(const std::string& input, const Options& options, unsigned num_sms = 4) {
  const GpuConfig gpu = tiny_gpu(num_sms);
  std::istringstream in(input);
  stream::Reader reader(in, "in");
  std::ostringstream out;
  {
    const auto sink = stream_sink(out, "out", reader.header(), stream::Stage{"cta-sample", "0", {}});
    CtaSampleStream sampler(gpu, options, *sink);
    sampler.read(reader);
  }
  Output o;
  std::istringstream back(out.str());
  stream::Reader r2(back, "out");
  stream::Record r;
  while (r2.next(r)) {
    o.types.push_back(r.type_name());
    if (r.type() == stream::RecordType::Cta) o.ctas.push_back(stream::decode<CtaTrace>(r).cta.x);
    if (r.type() == stream::RecordType::Sched) o.sched = stream::decode<KernelSchedule>(r);
    if (r.type() == stream::RecordType::Sample) o.sample = stream::decode<KernelSample>(r);
  }
  return o;
}

using sasskit::test::error_of;

}  // namespace

TEST(CtaSampleStream, KeepsTheLongestSmsCtasAndPassesTheRestInOrder) {
  const Output o = run_stream(imbalanced_stream(), Options{});
  EXPECT_EQ(o.types, (std::vector<std::string>{"kernel", "insts", "sched", "sample", "cta", "insts",
                                               "cta", "future"}));
  EXPECT_EQ(o.ctas, (std::vector<uint32_t>{1, 5}));
  ASSERT_TRUE(o.sched && o.sample);
  EXPECT_EQ(o.sched->sm, (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(o.sample->sms, (std::vector<uint32_t>{1}));
  EXPECT_EQ(o.sample->ctas, (std::vector<uint32_t>{1, 5}));
  ASSERT_EQ(o.sample->predicted_cycles.size(), 4u);
  for (unsigned sm : {0u, 2u, 3u}) EXPECT_LT(o.sample->predicted_cycles[sm], o.sample->predicted_cycles[1]);
  // Per warp: IMAD + work FFMA + LDG (+ EXIT from CTA 2 on); 2 warps per CTA.
  const uint64_t kernel_insts = 2 * (2 * 12 + 5 * 13 + 503);
  EXPECT_EQ(o.sample->kernel_insts, kernel_insts);
  EXPECT_EQ(o.sample->sample_insts, 2u * (12 + 503));
}

TEST(CtaSampleStream, KeepAllTopAndForcedSm) {
  Options all;
  all.sample.keep_all = true;
  Output o = run_stream(imbalanced_stream(), all);
  EXPECT_EQ(o.ctas.size(), 8u);
  EXPECT_FALSE(o.sample);
  EXPECT_TRUE(o.sched);

  Options top;
  top.sample.top = 2;
  o = run_stream(imbalanced_stream(), top);
  ASSERT_TRUE(o.sample);
  EXPECT_EQ(o.sample->sms.size(), 2u);
  EXPECT_EQ(o.sample->sms[0], 1u);
  EXPECT_EQ(o.ctas.size(), 4u);

  Options forced;
  forced.sample.force_sm = 3;
  o = run_stream(imbalanced_stream(), forced);
  EXPECT_EQ(o.ctas, (std::vector<uint32_t>{3, 7}));
  EXPECT_EQ(o.sample->selection, "sm");
}

TEST(CtaSampleStream, GreedyPolicyIsRecorded) {
  Options greedy;
  greedy.policy = SchedPolicyKind::Greedy;
  const Output o = run_stream(imbalanced_stream(), greedy);
  EXPECT_EQ(o.sched->policy, "greedy");
}

TEST(CtaSampleStream, OutputIsDeterministic) {
  const std::string in = imbalanced_stream();
  auto bytes = [&] {
    std::istringstream is(in);
    stream::Reader reader(is, "in");
    std::ostringstream out;
    const auto sink = stream_sink(out, "out", reader.header(), stream::Stage{"cta-sample", "0", {}});
    const GpuConfig gpu = tiny_gpu();
    CtaSampleStream sampler(gpu, Options{}, *sink);
    sampler.read(reader);
    return out.str();
  };
  EXPECT_EQ(bytes(), bytes());
}

TEST(CtaSampleStream, JsonSummary) {
  std::istringstream in(imbalanced_stream());
  stream::Reader reader(in, "in");
  std::ostringstream out;
  const auto sink = json_sink(out, report_provenance(reader.header().provenance, stream::Stage{"cta-sample", "0", {"cta-sample"}}));
  const GpuConfig gpu = tiny_gpu();
  CtaSampleStream sampler(gpu, Options{}, *sink);
  sampler.read(reader);
  const std::string s = out.str();
  EXPECT_EQ(s.substr(0, 13), "{\"kernels\":[{");
  EXPECT_EQ(s.substr(s.size() - 2), "}\n");
  for (const char* key : {"\"kernel_id\":1", "\"sampled_sm\":1", "\"ctas_total\":8", "\"ctas_kept\":2",
                          "\"predicted_cycles_per_sm\":[",
                          "\"provenance\":[{\"tool\":\"test\",\"version\":\"0\",\"argv\":[]},"
                          "{\"tool\":\"cta-sample\",\"version\":\"0\",\"argv\":[\"cta-sample\"]}]}"})
    EXPECT_NE(s.find(key), std::string::npos) << key << " in " << s;
}

TEST(CtaSampleStream, MissingCtasAndKernelsThatDoNotFitAreErrors) {
  std::ostringstream out;
  {
    stream::Writer w(out, "in", stream::Header{}, stream::Stage{"test", "0", {}});
    w.write(synthetic_kernel(1, 4, 64));
    w.write(synthetic_table(1));
    for (uint32_t i : {0u, 1u, 3u}) w.write(synthetic_cta(1, i, 2, 1));
    w.finish();
  }
  EXPECT_EQ(error_of([&] { run_stream(out.str(), Options{}); }),
            "in: record 1: kernel 1 (k1): its grid has 4 CTAs but the stream holds 3 cta records "
            "(first missing: CTA 2)");

  std::ostringstream big;
  {
    stream::Writer w(big, "in", stream::Header{}, stream::Stage{"test", "0", {}});
    KernelInfo k = synthetic_kernel(2, 1, 1024);
    k.nregs = 128;  // 128 x 1024 = 131072 registers > 65536
    w.write(k);
    w.finish();
  }
  try {
    run_stream(big.str(), Options{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Failure);
    EXPECT_NE(std::string(e.what()).find("exceeds what an SM offers in registers"), std::string::npos)
        << e.what();
  }
}
