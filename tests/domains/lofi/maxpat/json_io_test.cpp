// The JSON layer: exact numbers, Max's two layouts, errors with a place.
#include "domains/lofi/maxpat/json_io.hpp"

#include <gtest/gtest.h>

#include <boost/json/value.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

json::value parse_ok(std::string_view text) {
  auto value = parse_json(text);
  EXPECT_TRUE(value.has_value()) << (value ? "" : value.error().message);
  return value ? *value : json::value();
}

std::string parse_error(std::string_view text) {
  auto value = parse_json(text);
  EXPECT_FALSE(value.has_value());
  return value ? "" : value.error().message;
}

TEST(ParseJsonTest, DoublesAreTheNearestToTheirText) {
  // The expected values are parsed by the compiler, independently of the code under test.
  EXPECT_EQ(parse_ok("0.30000000000000004").as_double(), 0.30000000000000004);
  EXPECT_EQ(parse_ok("410.887061834335327").as_double(), 410.887061834335327);
  EXPECT_EQ(parse_ok("11.595186999999999").as_double(), 11.595186999999999);
  EXPECT_EQ(parse_ok("2.2250738585072011e-308").as_double(), 2.2250738585072011e-308);
  EXPECT_EQ(parse_ok("1.7976931348623157e308").as_double(), 1.7976931348623157e308);
  EXPECT_EQ(parse_ok("0.003921568627451").as_double(), 0.003921568627451);
  EXPECT_EQ(parse_ok("[ -70.0 ]").as_array()[0].as_double(), -70.0);
  EXPECT_TRUE(std::signbit(parse_ok("-0.0").as_double()));
}

TEST(ParseJsonTest, IntegersKeepTheirKind) {
  EXPECT_EQ(parse_ok("1633771873").as_int64(), 1633771873);
  EXPECT_EQ(parse_ok("-5").as_int64(), -5);
  EXPECT_EQ(parse_ok("9223372036854775807").as_int64(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(parse_ok("18446744073709551615").as_uint64(),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(parse_ok("18446744073709551616").as_double(), 18446744073709551616.0);
}

TEST(ParseJsonTest, NumbersOutsideTheDoubleRangeAreErrors) {
  EXPECT_NE(parse_error("1e400").find("outside the range of a double"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": [1, -1e999]}").find("-1e999"), std::string::npos);
  const std::string digits(400, '9');
  EXPECT_NE(parse_error("[" + digits + "]").find("outside the range"), std::string::npos);
}

TEST(ParseJsonTest, ErrorsSayWhere) {
  EXPECT_NE(parse_error("{\n  \"a\": ,\n}").find("line 2, column 8"), std::string::npos);
  EXPECT_NE(parse_error("{} x").find("line 1, column 4"), std::string::npos);
  EXPECT_NE(parse_error("").find("invalid JSON"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": \"unterminated").find("invalid JSON"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": \"caf\xE9\"}").find("line 1, column 11: invalid UTF-8"),
            std::string::npos);
}

TEST(ParseJsonTest, NestingIsLimited) {
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  EXPECT_NE(parse_error(deep).find("nesting deeper than 512"), std::string::npos);
  const std::string fine = std::string(500, '[') + std::string(500, ']');
  EXPECT_TRUE(parse_json(fine).has_value());
  EXPECT_FALSE(parse_json(fine, JsonLimits{10}).has_value());
}

TEST(ParseJsonTest, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(parse_ok("\xEF\xBB\xBF{\"a\": 1}").as_object().at("a").as_int64(), 1);
}

TEST(FormatDoubleTest, WritesNumbersLikeMax) {
  EXPECT_EQ(format_double(22.0), "22.0");
  EXPECT_EQ(format_double(0.5), "0.5");
  EXPECT_EQ(format_double(-70.0), "-70.0");
  EXPECT_EQ(format_double(0.0), "0.0");
  EXPECT_EQ(format_double(-0.0), "-0.0");
  EXPECT_EQ(format_double(410.887061834335327), "410.887061834335327");
  EXPECT_EQ(format_double(11.595187), "11.595186999999999");  // Max 8's 15 decimals
  EXPECT_EQ(format_double(594.6), "594.600000000000023");
  EXPECT_EQ(format_double(0.003921568627451), "0.003921568627451");
  EXPECT_EQ(format_double(3859919929.0), "3859919929.0");
}

TEST(FormatDoubleTest, FallsBackToTheShortestExactText) {
  EXPECT_EQ(format_double(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_double(1e-20), "1e-20");
  EXPECT_EQ(format_double(1.5e300), "1.5e+300");
  EXPECT_EQ(format_double(123456789012345678.0), "123456789012345680.0");
  EXPECT_EQ(format_double(272.799988, 6), "272.799988");  // Max 7's 6 decimals
  EXPECT_EQ(format_double(0.1 + 0.2, 6), "0.30000000000000004");
  EXPECT_EQ(format_double(0.5, 6), "0.5");
  EXPECT_EQ(format_double(std::nan("")), "0.0");
  for (double value : {1e-20, 1.5e300, 0.1 + 0.2, 5e-324, 123.456789012345678}) {
    EXPECT_EQ(parse_ok(format_double(value)).as_double(), value) << value;
  }
}

TEST(FormatJsonTest, TabsLayoutIsMaxs) {
  const json::value value =
      parse_ok(R"({"patcher":{"a":1,"o":{"x":[1.0,"s"]},"e":{},"l":[{"b":{}}],"n":[],"z":null}})");
  const std::string expected =
      "{\n"
      "\t\"patcher\" : \t{\n"
      "\t\t\"a\" : 1,\n"
      "\t\t\"o\" : \t\t{\n"
      "\t\t\t\"x\" : [ 1.0, \"s\" ]\n"
      "\t\t}\n"
      ",\n"
      "\t\t\"e\" : \t\t{\n"
      "\n"
      "\t\t}\n"
      ",\n"
      "\t\t\"l\" : [ \t\t\t{\n"
      "\t\t\t\t\"b\" : \t\t\t\t{\n"
      "\n"
      "\t\t\t\t}\n"
      "\n"
      "\t\t\t}\n"
      " ],\n"
      "\t\t\"n\" : [  ],\n"
      "\t\t\"z\" : null\n"
      "\t}\n"
      "\n"
      "}\n";
  EXPECT_EQ(format_json(value, JsonStyle::tabs), expected);
}

TEST(FormatJsonTest, SpacesLayoutIsMax9s) {
  const json::value value =
      parse_ok(R"({"patcher":{"a":true,"o":{"x":[1,2]},"e":{},"l":[{"b":{}},{"c":0}],"n":[]}})");
  const std::string expected =
      "{\n"
      "    \"patcher\": {\n"
      "        \"a\": true,\n"
      "        \"o\": {\n"
      "            \"x\": [ 1, 2 ]\n"
      "        },\n"
      "        \"e\": {        },\n"
      "        \"l\": [\n"
      "            {\n"
      "                \"b\": {                }\n"
      "            },\n"
      "            {\n"
      "                \"c\": 0\n"
      "            }\n"
      "        ],\n"
      "        \"n\": [  ]\n"
      "    }\n"
      "}";
  EXPECT_EQ(format_json(value, JsonStyle::spaces), expected);
}

TEST(FormatJsonTest, DecimalsFollowTheMaxVersion) {
  EXPECT_EQ(max_decimals(parse_ok(R"({"appversion": {"major": 7}})").as_object()), 6);
  EXPECT_EQ(max_decimals(parse_ok(R"({"appversion": {"major": 8}})").as_object()), 15);
  EXPECT_EQ(max_decimals(parse_ok(R"({"appversion": 9})").as_object()), 15);
  EXPECT_EQ(max_decimals(json::object()), 15);
  const json::value rect = parse_ok("[ 272.799988, 0.5 ]");
  EXPECT_EQ(format_json(rect, JsonStyle::tabs, 6), "[ 272.799988, 0.5 ]\n");
  EXPECT_EQ(format_json(rect, JsonStyle::tabs), "[ 272.799987999999985, 0.5 ]\n");
}

TEST(FormatJsonTest, StringsAreEscaped) {
  const json::value value = json::string("a\"b\\c\nd\re\tf\x01g é");
  EXPECT_EQ(format_json(value, JsonStyle::spaces), "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g é\"");
  EXPECT_EQ(parse_ok(format_json(value, JsonStyle::tabs)), value);
}

TEST(FormatJsonTest, KeyOrderIsKept) {
  const json::value value = parse_ok(R"({"z":1,"a":2,"m":3})");
  EXPECT_EQ(format_json(value, JsonStyle::spaces),
            "{\n    \"z\": 1,\n    \"a\": 2,\n    \"m\": 3\n}");
}

TEST(DetectStyleTest, JudgesByTheFirstKey) {
  EXPECT_EQ(detect_style("{\n\t\"patcher\" : \t{"), JsonStyle::tabs);
  EXPECT_EQ(detect_style("{\n    \"patcher\": {"), JsonStyle::spaces);
  EXPECT_EQ(detect_style("{\"pat\\\"cher\":1}"), JsonStyle::spaces);
  EXPECT_EQ(detect_style("not json"), JsonStyle::tabs);
  EXPECT_EQ(detect_style("\"unterminated"), JsonStyle::tabs);
}

}  // namespace
}  // namespace fcp::lofi::maxpat
