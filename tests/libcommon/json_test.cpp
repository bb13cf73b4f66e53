#include <gtest/gtest.h>

#include <sstream>

#include "libcommon/json.hpp"

using sasskit::JsonWriter;

TEST(Json, NestsWithCommasAndEscapes) {
  std::ostringstream s;
  JsonWriter j(s);
  j.begin_object().field("name", "a\"b\\c\n").field("n", 3).key("list");
  j.array(std::vector<double>{0.1, 2.0, 1e-300}).field("ok", true).key("none").null();
  j.end_object();
  EXPECT_EQ(s.str(), R"({"name":"a\"b\\c\n","n":3,"list":[0.1,2,1e-300],"ok":true,"none":null})");
}

TEST(Json, NonFiniteNumbersBecomeNull) {
  std::ostringstream s;
  JsonWriter j(s);
  j.begin_array().value(std::numeric_limits<double>::infinity()).value(-1.5).end_array();
  EXPECT_EQ(s.str(), "[null,-1.5]");
}

TEST(Json, ControlCharactersAreEscaped) {
  EXPECT_EQ(sasskit::json_escape(std::string("\x01", 1)), "\"\\u0001\"");
}
