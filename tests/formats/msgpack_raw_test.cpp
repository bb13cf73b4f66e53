// raw_field walks a record's keys and values by their encoded sizes
// (formats/msgpack_raw.cpp): scalars, strings and binaries from their tags,
// the other kinds through msgpack's parser. Every kind of value must be
// stepped over exactly, and a record cut anywhere refused.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <msgpack.hpp>
#include <sstream>
#include <vector>

#include "formats/msgpack_raw.hpp"
#include "tests/support/error_of.hpp"

using namespace sasskit;
using namespace sasskit::stream;
using sasskit::test::error_of;

namespace {

using Pack = std::function<void(msgpack::packer<std::stringstream>&)>;

// One value of each encoding msgpack has, and each width of its length or body.
std::vector<std::pair<std::string, Pack>> every_kind() {
  const std::string s300(300, 's'), s70k(70000, 'S');
  return {
      {"nil", [](auto& p) { p.pack_nil(); }},
      {"true", [](auto& p) { p.pack_true(); }},
      {"fixint", [](auto& p) { p.pack_fix_uint8(7); }},
      {"negative fixint", [](auto& p) { p.pack_fix_int8(-3); }},
      {"uint8", [](auto& p) { p.pack_fix_uint8(200); }},
      {"uint16", [](auto& p) { p.pack_fix_uint16(60000); }},
      {"uint32", [](auto& p) { p.pack_fix_uint32(4000000000u); }},
      {"uint64", [](auto& p) { p.pack_fix_uint64(~uint64_t(0)); }},
      {"int8", [](auto& p) { p.pack_fix_int8(-100); }},
      {"int16", [](auto& p) { p.pack_fix_int16(-30000); }},
      {"int32", [](auto& p) { p.pack_fix_int32(-2000000000); }},
      {"int64", [](auto& p) { p.pack_fix_int64(INT64_MIN); }},
      {"float32", [](auto& p) { p.pack_float(1.5f); }},
      {"float64", [](auto& p) { p.pack_double(2.5); }},
      {"fixstr", [](auto& p) { p.pack(std::string("kernel")); }},
      {"str8", [](auto& p) { p.pack(std::string(40, 'x')); }},
      {"str16", [s300](auto& p) { p.pack(s300); }},
      {"str32", [s70k](auto& p) { p.pack(s70k); }},
      {"bin8", [](auto& p) { p.pack_bin(3); p.pack_bin_body("abc", 3); }},
      {"bin16", [s300](auto& p) { p.pack_bin(300); p.pack_bin_body(s300.data(), 300); }},
      {"bin32", [s70k](auto& p) { p.pack_bin(70000); p.pack_bin_body(s70k.data(), 70000); }},
      {"array", [](auto& p) { p.pack(std::vector<int>{1, 2, 3}); }},
      {"map", [](auto& p) { p.pack_map(1); p.pack(std::string("k")); p.pack(std::vector<std::string>{"v"}); }},
      {"ext", [](auto& p) { p.pack_ext(2, 5); p.pack_ext_body("ab", 2); }},
  };
}

std::string encoded(const Pack& value) {
  std::stringstream out;
  msgpack::packer<std::stringstream> p(out);
  value(p);
  return out.str();
}

// {"a": value, "z": 9}
std::string record_with(const Pack& value) {
  std::stringstream out;
  msgpack::packer<std::stringstream> p(out);
  p.pack_map(2);
  p.pack(std::string("a"));
  value(p);
  p.pack(std::string("z"));
  p.pack(9);
  return out.str();
}

}  // namespace

TEST(RawField, StepsOverEveryKindOfValue) {
  for (const auto& [kind, value] : every_kind()) {
    const std::string record = record_with(value);
    EXPECT_EQ(raw_field(record, "a", "r"), encoded(value)) << kind;
    const auto z = raw_field(record, "z", "r");
    ASSERT_TRUE(z) << kind;
    EXPECT_EQ(raw_uint(*z), 9u) << kind;
    EXPECT_EQ(raw_field(record, "b", "r"), std::nullopt) << kind;
  }
}

TEST(RawField, AValueAsKeyIsSteppedOverToo) {
  std::stringstream out;
  msgpack::packer<std::stringstream> p(out);
  p.pack_map(2);
  p.pack(std::vector<int>{1});  // not a string key: never matches
  p.pack(1);
  p.pack(std::string("z"));
  p.pack(2);
  EXPECT_EQ(raw_uint(*raw_field(out.str(), "z", "r")), 2u);
}

TEST(RawField, ARecordCutAnywhereIsRefused) {
  for (const auto& [kind, value] : every_kind()) {
    const std::string record = record_with(value);
    for (size_t cut = 1; cut < record.size(); cut += 1 + cut / 64) {
      const std::string part = record.substr(0, cut);
      EXPECT_EQ(error_of([&] { raw_field(part, "z", "r"); }), "r: record is cut short") << kind << " cut at " << cut;
    }
  }
}

namespace {

// What msgpack's parser says of `bytes`: the first object's size where it
// lies whole and is at most `depth` containers deep, else nullopt.
std::optional<size_t> parser_size(std::string_view bytes, size_t depth) {
  struct Visitor : msgpack::null_visitor {
    size_t depth = 0, most = 0;
    bool too_deep = false;
    bool enter() { return !(too_deep = too_deep || ++depth > most); }
    bool start_array(uint32_t) { return enter(); }
    bool end_array() { return --depth, true; }
    bool start_map(uint32_t) { return enter(); }
    bool end_map() { return --depth, true; }
    void parse_error(size_t, size_t) {}
    void insufficient_bytes(size_t, size_t) {}
  } v;
  v.most = depth;
  size_t off = 0;
  if (!msgpack::parse(bytes.data(), bytes.size(), off, v)) return std::nullopt;
  return off;
}

// `value` inside `levels` arrays of one element each.
std::string nested(const std::string& value, size_t levels) { return std::string(levels, '\x91') + value; }

}  // namespace

TEST(PlainObjectSize, AgreesWithTheParserOnEveryKindWholeOrCut) {
  for (const auto& [kind, value] : every_kind()) {
    const std::string record = record_with(value) + "tail";
    const std::string whole = record.substr(0, record.size() - 4);
    const auto size = plain_object_size(record, 32);
    if (kind == "ext") {
      EXPECT_EQ(size, std::nullopt) << "an ext is left to the parser";
    } else {
      EXPECT_EQ(size, whole.size()) << kind;
    }
    EXPECT_EQ(parser_size(record, 32), whole.size()) << kind;
    for (size_t cut = 0; cut < whole.size(); cut += 1 + cut / 64)
      EXPECT_EQ(plain_object_size(whole.substr(0, cut), 32), std::nullopt) << kind << " cut at " << cut;
  }
}

TEST(PlainObjectSize, NestsAsDeepAsAskedAndNoDeeper) {
  const std::string leaf = encoded([](auto& p) { p.pack(std::string("leaf")); });
  for (size_t depth : {size_t(0), size_t(1), size_t(5), size_t(32)}) {
    EXPECT_EQ(plain_object_size(nested(leaf, depth), 32), depth + leaf.size()) << depth;
    EXPECT_EQ(parser_size(nested(leaf, depth), 32), depth + leaf.size()) << depth;
  }
  EXPECT_EQ(plain_object_size(nested(leaf, 33), 32), std::nullopt);
  EXPECT_EQ(parser_size(nested(leaf, 33), 32), std::nullopt);
  EXPECT_EQ(plain_object_size(nested(leaf, 4), 3), std::nullopt);
  EXPECT_EQ(plain_object_size(nested(leaf, 64), 100), 64 + leaf.size()) << "the depth is capped at 64";
  EXPECT_EQ(plain_object_size(nested(leaf, 65), 100), std::nullopt);
}

TEST(PlainObjectSize, EmptyContainersAndTheUnusedTag) {
  EXPECT_EQ(plain_object_size(std::string("\x90\x80", 2), 32), 1u);
  EXPECT_EQ(plain_object_size(std::string("\x92\x80\x90", 3), 32), 3u);
  EXPECT_EQ(plain_object_size(std::string("\x91\xc1", 2), 32), std::nullopt);
  EXPECT_EQ(plain_object_size(std::string("\xdc\x00", 2), 32), std::nullopt) << "array16 header cut short";
  EXPECT_EQ(plain_object_size(std::string("\xde\x00\x01\xa1k\x07", 6), 32), 6u) << "map16";
  EXPECT_EQ(plain_object_size("", 32), std::nullopt);
}

// plain_map_size sizes what plain_object_size sizes, and its entries answer
// as raw_fields does: every kind of value, a key of another kind, a key
// twice (the first entry), a record cut anywhere.
TEST(PlainMapSize, SizesAsTheWalkDoesAndFindsWhatRawFieldsFinds) {
  for (const auto& [kind, value] : every_kind()) {
    const std::string record = record_with(value);
    TopFields fields;
    EXPECT_EQ(plain_map_size(record + "tail", 32, fields), plain_object_size(record + "tail", 32)) << kind;
    if (kind == "ext") {
      EXPECT_FALSE(fields.complete()) << "an ext is left to the parser";
      continue;
    }
    ASSERT_TRUE(fields.complete()) << kind;
    const std::array<std::string_view, 4> keys = {"z", "a", "b", ""};
    std::array<std::optional<std::string_view>, 4> found, walked;
    fields.find(record, keys, found);
    raw_fields(record, keys, walked, "r");
    EXPECT_EQ(found, walked) << kind;
    EXPECT_EQ(found[1], encoded(value)) << kind;
    for (size_t cut = 0; cut < record.size(); cut += 1 + cut / 64) {
      TopFields part;
      EXPECT_EQ(plain_map_size(record.substr(0, cut), 32, part), std::nullopt) << kind << " cut at " << cut;
      EXPECT_FALSE(part.complete()) << kind << " cut at " << cut;
    }
  }
}

TEST(PlainMapSize, TakesTheFirstEntryOfAKeyAndNoKeyOfAnotherKind) {
  const std::string record = encoded([](auto& p) {
    p.pack_map(4);
    p.pack(std::vector<int>{1});  // not a string key: never matches
    p.pack(1);
    p.pack(std::string(40, 'k'));  // a str8 key
    p.pack(2);
    p.pack(std::string("t"));
    p.pack(3);
    p.pack(std::string("t"));
    p.pack(4);
  });
  TopFields fields;
  ASSERT_EQ(plain_map_size(record, 32, fields), record.size());
  ASSERT_TRUE(fields.complete());
  const std::string long_key(40, 'k');
  const std::array<std::string_view, 3> keys = {"t", std::string_view("\x91\x01", 2), long_key};
  std::array<std::optional<std::string_view>, 3> found;
  fields.find(record, keys, found);
  EXPECT_EQ(raw_uint(*found[0]), 3u);
  EXPECT_EQ(found[1], std::nullopt);
  EXPECT_EQ(raw_uint(*found[2]), 2u);
}

TEST(PlainMapSize, LeavesLargerMapsAndOtherObjectsToTheWalk) {
  const std::string nine = encoded([](auto& p) {
    p.pack_map(TopFields::kMostEntries + 1);
    for (size_t i = 0; i <= TopFields::kMostEntries; ++i) {
      p.pack(std::string(1, char('a' + i)));
      p.pack(i);
    }
  });
  TopFields fields;
  EXPECT_EQ(plain_map_size(nine, 32, fields), nine.size());
  EXPECT_FALSE(fields.complete());
  EXPECT_EQ(plain_map_size(std::string("\x93\x01\x02\x03", 4), 32, fields), 4u);
  EXPECT_FALSE(fields.complete());
  const std::string leaf = encoded([](auto& q) { q.pack(std::string("leaf")); });
  const std::string deep = std::string("\x81\xa1k", 3) + nested(leaf, 31);  // 32 levels with the map
  EXPECT_EQ(plain_map_size(deep, 32, fields), deep.size());
  EXPECT_EQ(plain_map_size(std::string("\x81\xa1k", 3) + nested(leaf, 32), 32, fields), std::nullopt);
  EXPECT_EQ(plain_map_size(std::string("\x81\xa1k\x91\x01", 5), 1, fields), std::nullopt) << "an array below a map of depth 1";
  EXPECT_EQ(plain_object_size(std::string("\x81\xa1k\x91\x01", 5), 1), std::nullopt);
}
