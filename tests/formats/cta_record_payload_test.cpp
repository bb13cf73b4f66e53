// stream::cta_payload reads a cta record's checked fields from its bytes
// where they have the form a writer gives them, and builds the record's
// msgpack object otherwise: both ways must give the same payload, and the
// same error as unpacking the record.
#include <gtest/gtest.h>

#include <functional>
#include <msgpack.hpp>
#include <sstream>
#include <vector>

#include "formats/records.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::stream;
using sasskit::test::error_of;

namespace {

using MsgPacker = msgpack::packer<std::stringstream>;

std::string encoded(const std::function<void(MsgPacker&)>& pack) {
  std::stringstream out;
  MsgPacker p(out);
  pack(p);
  return out.str();
}
std::string str(const std::string& s) { return encoded([&](MsgPacker& p) { p.pack(s); }); }
std::string unsigned_int(uint64_t v) { return encoded([&](MsgPacker& p) { p.pack(v); }); }
std::string dims(std::vector<uint64_t> v) { return encoded([&](MsgPacker& p) { p.pack(v); }); }
const std::string kBody = "\x01\x02\x03";
const std::string kBin = encoded([](MsgPacker& p) {
  p.pack_bin(3);
  p.pack_bin_body(kBody.data(), 3);
});

// A cta record's map: its type, then the encoded keys and values, in order.
Record record(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string bytes = encoded([&](MsgPacker& p) { p.pack_map(static_cast<uint32_t>(entries.size() + 1)); });
  bytes += str("t") + str("cta");
  for (const auto& [key, value] : entries) bytes += key + value;
  return Record(bytes, "t");
}

Record cta_with(const std::string& kernel, const std::string& cta, const std::string& data) {
  return record({{str("kernel"), kernel}, {str("cta"), cta}, {str("data"), data}});
}

}  // namespace

TEST(CtaRecordPayload, FieldsAsAWriterGivesThemReadTheirPayload) {
  const Record r = cta_with(unsigned_int(7), dims({1, 2, 3}), kBin);
  const auto payload = cta_payload(r);  // a view into r
  ASSERT_TRUE(payload);
  EXPECT_EQ(*payload, kBody);
  EXPECT_FALSE(cta_payload(record({{str("kernel"), unsigned_int(7)}, {str("cta"), dims({1, 2, 3})}})));
}

TEST(CtaRecordPayload, OtherFormsGiveWhatTheRecordsObjectGives) {
  // Accepted by the object: an int8 kernel, a str8 key, the first of two "data".
  const std::string int8_kernel = "\xd0\x07";
  EXPECT_EQ(cta_payload(cta_with(int8_kernel, dims({1, 2, 3}), kBin)).value_or(""), kBody);
  const std::string str8_data = std::string("\xd9\x04") + "data";
  EXPECT_EQ(cta_payload(record({{str("kernel"), unsigned_int(7)}, {str("cta"), dims({1, 2, 3})}, {str8_data, kBin}}))
                .value_or(""),
            kBody);
  EXPECT_EQ(cta_payload(record({{str("kernel"), unsigned_int(7)}, {str("cta"), dims({1, 2, 3})}, {str("data"), kBin},
                                {str("data"), str("x")}}))
                .value_or(""),
            kBody);
  // Refused, with the message unpacking the record gives.
  const std::vector<Record> refused = {
      cta_with(unsigned_int(uint64_t{1} << 32), dims({1, 2, 3}), kBin),
      cta_with(encoded([](MsgPacker& p) { p.pack(-1); }), dims({1, 2, 3}), kBin),
      cta_with(str("7"), dims({1, 2, 3}), kBin),
      cta_with(unsigned_int(7), dims({1, 2}), kBin),
      cta_with(unsigned_int(7), dims({1, 2, uint64_t{1} << 32}), kBin),
      cta_with(unsigned_int(7), str("1,2,3"), kBin),
      cta_with(unsigned_int(7), dims({1, 2, 3}), str("xyz")),
      record({{str("cta"), dims({1, 2, 3})}, {str("data"), kBin}}),
      record({{str("kernel"), unsigned_int(7)},
              {str("cta"), dims({1, 2, 3})},
              {str("data"), str("x")},
              {str("data"), kBin}}),
  };
  for (size_t i = 0; i < refused.size(); ++i) {
    const std::string expected = error_of([&] { RecordCodec<CtaTrace>::unpack(refused[i]); });
    EXPECT_NE(expected, "") << i;
    EXPECT_EQ(error_of([&] { cta_payload(refused[i]); }), expected) << i;
  }
}
