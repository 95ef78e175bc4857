// Broken and hostile input: every case is an error value with a message, never a crash.
#include <gtest/gtest.h>

#include <random>

#include "maxpat_test_support.hpp"

namespace fcp::lofi::maxpat {
namespace {

using testing::amxd_error;
using testing::corpus_files;
using testing::is_amxd;
using testing::le32;
using testing::read_error;
using testing::read_file;

TEST(HostileMaxpatTest, InvalidJson) {
  for (std::string_view text :
       {"", "{", "}", "{\"patcher\": {", "{\"patcher\": {}} trailing", "{'patcher': {}}",
        "{\"patcher\": {\"a\": tru}}", "\x00\x01\x02", "{\"patcher\": {\"a\": \"\xFF\"}}",
        "{\"patcher\": {\"a\": 01}}", "{\"patcher\": {,}}", "[1, 2,]", "nul"}) {
    SCOPED_TRACE(text);
    EXPECT_NE(read_error(text).find("invalid JSON"), std::string::npos);
  }
}

TEST(HostileMaxpatTest, MissingOrWrongPatcher) {
  EXPECT_NE(read_error("[]").find("a JSON object holding a \"patcher\""), std::string::npos);
  EXPECT_NE(read_error("42").find("a JSON object"), std::string::npos);
  for (std::string_view text : {"{}", "{\"patcher\": 1}", "{\"patcher\": []}", "{\"Patcher\": {}}",
                                "{\"patcher\": null}"}) {
    SCOPED_TRACE(text);
    EXPECT_NE(read_error(text).find("no \"patcher\" object"), std::string::npos);
  }
}

TEST(HostileMaxpatTest, BoxesThatAreNotBoxes) {
  EXPECT_NE(read_error(R"({"patcher": {"boxes": {}}})").find("\"boxes\" is not an array"),
            std::string::npos);
  for (std::string_view boxes : {"[1]", "[\"box\"]", "[null]", "[[]]", "[{}]", "[{\"box\": 1}]",
                                 "[{\"box\": []}]", "[{\"Box\": {}}]"}) {
    SCOPED_TRACE(boxes);
    const std::string text = "{\"patcher\": {\"boxes\": " + std::string(boxes) + "}}";
    EXPECT_NE(read_error(text).find("box 1 of the patcher is not of the form"), std::string::npos);
  }
  for (std::string_view box : {R"({"id": 1, "maxclass": "x"})", R"({"id": "", "maxclass": "x"})",
                               R"({"id": null})", R"({"maxclass": "x"})"}) {
    SCOPED_TRACE(box);
    const std::string text = "{\"patcher\": {\"boxes\": [{\"box\": " + std::string(box) + "}]}}";
    EXPECT_NE(read_error(text).find("has no \"id\" string"), std::string::npos);
  }
  EXPECT_NE(read_error(R"({"patcher": {"boxes": [{"box": {"id": "a", "maxclass": 3}}]}})")
                .find("has no \"maxclass\""),
            std::string::npos);
}

TEST(HostileMaxpatTest, LinesThatAreNotLines) {
  EXPECT_NE(read_error(R"({"patcher": {"lines": "x"}})").find("\"lines\" is not an array"),
            std::string::npos);
  for (std::string_view line :
       {R"(1)", R"({})", R"({"patchline": 1})", R"({"patchline": {}})",
        R"({"patchline": {"source": ["a"], "destination": ["b", 0]}})",
        R"({"patchline": {"source": [1, 0], "destination": ["b", 0]}})",
        R"({"patchline": {"source": ["a", -1], "destination": ["b", 0]}})",
        R"({"patchline": {"source": ["a", 0.5], "destination": ["b", 0]}})",
        R"({"patchline": {"source": ["a", "0"], "destination": ["b", 0]}})",
        R"({"patchline": {"source": ["a", 99999999999], "destination": ["b", 0]}})",
        R"({"patchline": {"source": ["a", 0], "destination": "b"}})"}) {
    SCOPED_TRACE(line);
    const std::string text = "{\"patcher\": {\"lines\": [" + std::string(line) + "]}}";
    EXPECT_NE(read_error(text).find("line 1 of the patcher"), std::string::npos);
  }
}

TEST(HostileMaxpatTest, HugeNumbers) {
  EXPECT_NE(read_error(R"({"patcher": {"rect": [1e400, 0, 0, 0]}})").find("outside the range"),
            std::string::npos);
  EXPECT_NE(read_error("{\"patcher\": {\"x\": -" + std::string(500, '9') + "}}")
                .find("outside the range"),
            std::string::npos);
  // Large but representable numbers are kept exactly.
  const std::string text =
      R"({"patcher": {"a": 18446744073709551615, "b": 1e300, "c": -9223372036854775808,
                      "boxes": [{"box": {"id": "x", "maxclass": "m", "numinlets": 1e20,
                                         "patching_rect": [1e308, -1e308, 0, 0]}}]}})";
  const Patcher patcher = testing::read_ok(text);
  EXPECT_EQ(patcher.boxes[0].numinlets(), -1);  // not a count: reported as absent
  const Patcher again = testing::read_ok(write_maxpat(patcher));
  EXPECT_EQ(again.boxes, patcher.boxes);
  EXPECT_EQ(again.json, patcher.json);
}

TEST(HostileMaxpatTest, DeepNestingIsRefused) {
  const std::string deep = "{\"patcher\": {\"x\": " + std::string(100000, '[') + "}}";
  EXPECT_NE(read_error(deep).find("nesting deeper"), std::string::npos);
}

TEST(HostileMaxpatTest, LineAccessorsOnDamagedJson) {
  Line line;
  EXPECT_EQ(line.source_id(), "");
  EXPECT_EQ(line.source_outlet(), -1);
  line.json["source"] = boost::json::array{"a", -3};
  EXPECT_EQ(line.source_outlet(), -1);
  Box box;
  EXPECT_EQ(box.class_name(), "");
  EXPECT_EQ(box.patching_rect(), std::nullopt);
  box.json["patching_rect"] = boost::json::array{1, "x", 3, 4};
  EXPECT_EQ(box.patching_rect(), std::nullopt);
  EXPECT_EQ(expected_ports(box), std::nullopt);
}

// Every proper prefix of a device is refused with a message.
void expect_every_prefix_refused(const std::string& bytes) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto file = read_amxd(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(file.has_value()) << "prefix of " << n << " bytes opened";
    ASSERT_FALSE(file.error().message.empty());
  }
}

TEST(HostileAmxdTest, EveryTruncationOfANewDeviceIsAnError) {
  Patcher patcher = make_patcher(300, 170);
  patcher.boxes.push_back(make_box("obj-1", "plugin~", "", 10, 10));
  expect_every_prefix_refused(write_amxd(make_amxd(patcher)));
}

TEST(HostileAmxdTest, EveryTruncationOfACorpusDeviceIsAnError) {
  std::size_t devices = 0;
  for (const auto& path : corpus_files()) {
    if (!is_amxd(path)) continue;
    const std::string bytes = read_file(path);
    if (!read_amxd(bytes)) continue;
    SCOPED_TRACE(path.filename().string());
    ++devices;
    expect_every_prefix_refused(bytes);
  }
  if (devices == 0) GTEST_SKIP() << "no corpus devices";
}

TEST(HostileAmxdTest, LengthsThatLie) {
  const std::string json_text = write_maxpat(make_patcher(10, 10));
  const std::string head = "ampf" + le32(4) + "aaaa" + "meta" + le32(4) + le32(0) + "ptch";
  EXPECT_NE(amxd_error(head + le32(0xFFFFFFFF) + json_text).find("claims 4294967295 bytes"),
            std::string::npos);
  EXPECT_NE(amxd_error(head + le32(0)).find("holds no patcher JSON"), std::string::npos);
  EXPECT_NE(amxd_error("ampf" + le32(0xFFFFFFF0) + "aaaa").find("truncated"), std::string::npos);
  EXPECT_NE(amxd_error("ampf" + le32(4) + "aaaa" + "meta" + le32(0xFFFFFFFF)).find("truncated"),
            std::string::npos);
  // A frozen header too short to hold its own fields.
  EXPECT_NE(
      amxd_error("ampf" + le32(4) + "aaaa" + "ptch" + le32(8) + "mx@c" + le32(0)).find("mx@c"),
      std::string::npos);
}

TEST(HostileAmxdTest, RandomDamageNeverCrashes) {
  Patcher patcher = make_patcher(300, 170);
  patcher.boxes.push_back(make_box("obj-1", "live.dial", "", 10, 10));
  const std::string device = write_amxd(make_amxd(patcher));
  std::mt19937 random(12345);
  std::size_t opened = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string damaged = device;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < flips; ++i) {
      const std::size_t at = random() % std::min<std::size_t>(damaged.size(), 64);
      damaged[at] = static_cast<char>(random() & 0xFF);
    }
    auto file = read_amxd(damaged);
    if (file) {
      ++opened;
      EXPECT_TRUE(read_amxd(write_amxd(*file)).has_value());
    } else {
      EXPECT_FALSE(file.error().message.empty());
    }
  }
  EXPECT_LT(opened, 3000u);
}

}  // namespace
}  // namespace fcp::lofi::maxpat
