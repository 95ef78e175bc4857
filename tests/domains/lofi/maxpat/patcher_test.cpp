// The patcher model: reading, accessors, key order, new boxes/lines/patchers, expected ports.
#include "domains/lofi/maxpat/patcher.hpp"

#include <gtest/gtest.h>

#include <boost/json/value.hpp>

#include "maxpat_test_support.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;
using testing::read_error;
using testing::read_ok;

constexpr std::string_view small_patcher = R"({
  "patcher": {
    "fileversion": 1,
    "rect": [10.0, 20.0, 300.0, 200.0],
    "boxes": [
      {"box": {"id": "obj-1", "maxclass": "newobj", "numinlets": 2, "numoutlets": 1,
               "outlettype": ["signal"], "patching_rect": [20.0, 30.0, 66.0, 22.0],
               "text": "cycle~  440 @phase 0.5", "custom": {"kept": [1, 2]}}},
      {"box": {"id": "obj-7", "maxclass": "live.dial", "numinlets": 1, "numoutlets": 2,
               "outlettype": ["", "float"], "patching_rect": [1, 2, 41, 48], "varname": "Rate"}}
    ],
    "middle": "between",
    "lines": [
      {"patchline": {"destination": ["obj-1", 1], "order": 0, "source": ["obj-7", 1]}}
    ],
    "autosave": 0
  }
})";

TEST(PatcherTest, ReadsBoxesLinesAndTheRest) {
  const Patcher patcher = read_ok(small_patcher);
  ASSERT_EQ(patcher.boxes.size(), 2u);
  ASSERT_EQ(patcher.lines.size(), 1u);
  EXPECT_FALSE(patcher.json.contains("boxes"));
  EXPECT_FALSE(patcher.json.contains("lines"));
  EXPECT_EQ(patcher.json.at("middle"), "between");
  EXPECT_EQ(patcher.boxes_key_index, 2u);
  EXPECT_EQ(patcher.lines_key_index, 4u);
  EXPECT_EQ(patcher.style, JsonStyle::spaces);

  const Box& osc = patcher.boxes[0];
  EXPECT_EQ(osc.id(), "obj-1");
  EXPECT_EQ(osc.maxclass(), "newobj");
  EXPECT_EQ(osc.text(), "cycle~  440 @phase 0.5");
  EXPECT_EQ(osc.class_name(), "cycle~");
  EXPECT_EQ(osc.args(), "440 @phase 0.5");
  EXPECT_EQ(osc.numinlets(), 2);
  EXPECT_EQ(osc.numoutlets(), 1);
  EXPECT_EQ(osc.patching_rect(), (std::array<double, 4>{20.0, 30.0, 66.0, 22.0}));
  EXPECT_EQ(osc.json.at("custom").at("kept").as_array().size(), 2u);
  EXPECT_EQ(osc.subpatcher(), nullptr);

  const Box& dial = patcher.boxes[1];
  EXPECT_EQ(dial.class_name(), "live.dial");
  EXPECT_EQ(dial.args(), "");
  EXPECT_EQ(dial.text(), "");
  EXPECT_EQ(dial.patching_rect(), (std::array<double, 4>{1, 2, 41, 48}));

  const Line& line = patcher.lines[0];
  EXPECT_EQ(line.source_id(), "obj-7");
  EXPECT_EQ(line.source_outlet(), 1);
  EXPECT_EQ(line.destination_id(), "obj-1");
  EXPECT_EQ(line.destination_inlet(), 1);
  EXPECT_EQ(line.json.at("order"), 0);
}

TEST(PatcherTest, WriteKeepsKeyOrderAndEveryAttribute) {
  const Patcher patcher = read_ok(small_patcher);
  const std::string written = write_maxpat(patcher);
  EXPECT_LT(written.find("\"rect\""), written.find("\"boxes\""));
  EXPECT_LT(written.find("\"boxes\""), written.find("\"middle\""));
  EXPECT_LT(written.find("\"middle\""), written.find("\"lines\""));
  EXPECT_LT(written.find("\"lines\""), written.find("\"autosave\""));
  EXPECT_NE(written.find("\"kept\": [ 1, 2 ]"), std::string::npos);
  EXPECT_EQ(read_ok(written), patcher);
  auto original = parse_json(small_patcher);
  auto again = parse_json(written);
  ASSERT_TRUE(original && again);
  EXPECT_EQ(*again, *original);
}

TEST(PatcherTest, MissingBoxesAndLinesAreWrittenWhereMaxPutsThem) {
  Patcher patcher =
      read_ok(R"({"patcher": {"fileversion": 1, "assistshowspatchername": 0, "autosave": 0}})");
  EXPECT_TRUE(patcher.boxes.empty());
  EXPECT_EQ(patcher.boxes_key_index, Patcher::npos);
  const std::string written = write_maxpat(patcher);
  EXPECT_LT(written.find("assistshowspatchername"), written.find("\"boxes\""));
  EXPECT_LT(written.find("\"boxes\""), written.find("\"lines\""));
  EXPECT_LT(written.find("\"lines\""), written.find("autosave"));
}

TEST(PatcherTest, LinesBeforeBoxesStayBeforeBoxes) {
  const Patcher patcher = read_ok(
      R"({"patcher": {"lines": [], "a": 1, "boxes": [{"box": {"id": "x", "maxclass": "m"}}]}})");
  const std::string written = write_maxpat(patcher);
  EXPECT_LT(written.find("\"lines\""), written.find("\"a\""));
  EXPECT_LT(written.find("\"a\""), written.find("\"boxes\""));
}

TEST(PatcherTest, FindsBoxesAndNumbersNewOnes) {
  Patcher patcher = read_ok(small_patcher);
  ASSERT_NE(patcher.find_box("obj-7"), nullptr);
  EXPECT_EQ(patcher.find_box("obj-7")->maxclass(), "live.dial");
  EXPECT_EQ(patcher.find_box("obj-2"), nullptr);
  EXPECT_EQ(patcher.next_box_id(), "obj-8");
  patcher.find_box("obj-1")->json["text"] = "phasor~ 2";
  EXPECT_EQ(patcher.boxes[0].class_name(), "phasor~");
  EXPECT_EQ(make_patcher(100, 100).next_box_id(), "obj-1");
}

TEST(PatcherTest, TabsFilesAreDetected) {
  const Patcher patcher = read_ok("{\n\t\"patcher\" : \t{\n\t\t\"boxes\" : [  ]\n\t}\n\n}\n");
  EXPECT_EQ(patcher.style, JsonStyle::tabs);
  EXPECT_EQ(write_maxpat(patcher),
            "{\n\t\"patcher\" : \t{\n\t\t\"boxes\" : [  ],\n\t\t\"lines\" : [  ]\n\t}\n\n}\n");
}

TEST(PatcherTest, SubpatchersStayInTheirBox) {
  const Patcher patcher = read_ok(R"({"patcher": {"boxes": [{"box": {
      "id": "obj-1", "maxclass": "newobj", "numinlets": 2, "numoutlets": 1, "text": "p inner",
      "patcher": {"boxes": [
        {"box": {"id": "obj-1", "maxclass": "inlet"}},
        {"box": {"id": "obj-2", "maxclass": "inlet"}},
        {"box": {"id": "obj-3", "maxclass": "outlet"}},
        {"box": {"id": "obj-4", "maxclass": "comment"}}]}}}]}})");
  const Box& box = patcher.boxes[0];
  ASSERT_NE(box.subpatcher(), nullptr);
  auto inner = patcher_from_json(*box.subpatcher());
  ASSERT_TRUE(inner.has_value());
  EXPECT_EQ(inner->boxes.size(), 4u);
  EXPECT_EQ(expected_ports(box), (Ports{2, 1, {""}}));
}

TEST(PatcherTest, ExpectedPortsOfGenCountInAndOut) {
  const Patcher patcher = read_ok(R"({"patcher": {"boxes": [{"box": {
      "id": "obj-1", "maxclass": "newobj", "text": "gen~",
      "patcher": {"boxes": [
        {"box": {"id": "obj-1", "maxclass": "newobj", "text": "in 1"}},
        {"box": {"id": "obj-2", "maxclass": "newobj", "text": "in 3"}},
        {"box": {"id": "obj-3", "maxclass": "newobj", "text": "out 2"}}]}}}]}})");
  EXPECT_EQ(expected_ports(patcher.boxes[0]), (Ports{3, 2, {"signal", "signal"}}));
}

TEST(PatcherTest, ExpectedPortsNeedsTheTableOrTheContents) {
  EXPECT_EQ(expected_ports(make_box("obj-1", "route", "a b", 0, 0)), (Ports{3, 3, {"", "", ""}}));
  EXPECT_EQ(expected_ports(make_box("obj-1", "my.external", "", 0, 0)), std::nullopt);
  EXPECT_EQ(expected_ports(make_box("obj-1", "js", "script.js", 0, 0)), std::nullopt);
  EXPECT_EQ(expected_ports(make_box("obj-1", "message", "hello", 0, 0)), (Ports{2, 1, {""}}));
}

TEST(MakeBoxTest, NewObjectsCarryTheirTextAndPorts) {
  const Box box = make_box("obj-3", "cycle~", "440", 10, 20);
  EXPECT_EQ(box.id(), "obj-3");
  EXPECT_EQ(box.maxclass(), "newobj");
  EXPECT_EQ(box.text(), "cycle~ 440");
  EXPECT_EQ(box.numinlets(), 2);
  EXPECT_EQ(box.numoutlets(), 1);
  EXPECT_EQ(box.json.at("outlettype"), (json::array{"signal"}));
  const auto rect = box.patching_rect();
  ASSERT_TRUE(rect);
  EXPECT_EQ((*rect)[0], 10);
  EXPECT_EQ((*rect)[1], 20);
  EXPECT_GT((*rect)[2], 50);
  EXPECT_EQ((*rect)[3], 22);
  EXPECT_FALSE(box.json.contains("presentation"));
  EXPECT_FALSE(box.json.contains("varname"));
  EXPECT_EQ(make_box("obj-1", "print", "", 0, 0).text(), "print");
  EXPECT_FALSE(make_box("obj-1", "print", "", 0, 0).json.contains("outlettype"));
}

TEST(MakeBoxTest, UiObjectsUseTheirOwnClassAndSize) {
  const Box dial = make_box("obj-9", "live.dial", "", 5, 6, std::array<double, 4>{1, 2, 41, 48});
  EXPECT_EQ(dial.maxclass(), "live.dial");
  EXPECT_FALSE(dial.json.contains("text"));
  EXPECT_EQ(dial.json.at("parameter_enable"), 1);
  EXPECT_EQ(dial.json.at("presentation"), 1);
  EXPECT_EQ(dial.json.at("presentation_rect"), (json::array{1.0, 2.0, 41.0, 48.0}));
  EXPECT_EQ(dial.json.at("patching_rect"), (json::array{5.0, 6.0, 41.0, 48.0}));
  EXPECT_EQ(dial.json.at("varname"), "obj-9");
  EXPECT_EQ(dial.json.at("outlettype"), (json::array{"", "float"}));

  const Box toggle = make_box("obj-2", "toggle", "", 0, 0);
  EXPECT_EQ(toggle.json.at("parameter_enable"), 0);
  EXPECT_FALSE(toggle.json.contains("varname"));

  const Box message = make_box("obj-4", "message", "set 1", 0, 0);
  EXPECT_EQ(message.maxclass(), "message");
  EXPECT_EQ(message.text(), "set 1");
  EXPECT_EQ(make_box("obj-5", "comment", "", 0, 0).text(), "");
  EXPECT_TRUE(make_box("obj-5", "comment", "", 0, 0).json.contains("text"));
}

TEST(MakeBoxTest, KeysAreInMaxsAlphabeticalOrder) {
  for (const auto& box : {make_box("obj-1", "live.gain~", "", 0, 0, std::array<double, 4>{}),
                          make_box("obj-2", "p", "sub", 0, 0), make_box("obj-3", "t", "b b", 0, 0),
                          make_box("obj-4", "message", "x", 0, 0, std::array<double, 4>{})}) {
    std::string previous;
    for (const auto& member : box.json) {
      EXPECT_LT(previous, std::string(member.key())) << box.id();
      previous = std::string(member.key());
    }
  }
}

TEST(MakeBoxTest, SubpatcherBoxesEmbedAnEmptyPatcher) {
  const Box box = make_box("obj-1", "p", "voice", 0, 0);
  ASSERT_NE(box.subpatcher(), nullptr);
  auto inner = patcher_from_json(*box.subpatcher());
  ASSERT_TRUE(inner.has_value());
  EXPECT_TRUE(inner->boxes.empty());
  EXPECT_EQ(expected_ports(box), (Ports{0, 0, {}}));
}

TEST(MakeLineTest, HasSourceAndDestination) {
  const Line line = make_line("obj-1", 0, "obj-2", 1);
  EXPECT_EQ(line.source_id(), "obj-1");
  EXPECT_EQ(line.source_outlet(), 0);
  EXPECT_EQ(line.destination_id(), "obj-2");
  EXPECT_EQ(line.destination_inlet(), 1);
  EXPECT_EQ(line.json.begin()->key(), "destination");
}

TEST(MakePatcherTest, BuiltPatcherRoundTrips) {
  Patcher patcher = make_patcher(600, 400);
  EXPECT_EQ(patcher.json.at("rect"), (json::array{100.0, 100.0, 600.0, 400.0}));
  EXPECT_EQ(patcher.json.at("fileversion"), 1);
  EXPECT_EQ(patcher.json.at("appversion").at("major"), 8);
  patcher.boxes.push_back(make_box("obj-1", "cycle~", "220", 20, 20));
  patcher.boxes.push_back(make_box("obj-2", "live.gain~", "", 20, 60));
  patcher.boxes.push_back(make_box("obj-3", "plugout~", "", 20, 220));
  patcher.lines.push_back(make_line("obj-1", 0, "obj-2", 0));
  patcher.lines.push_back(make_line("obj-2", 0, "obj-3", 0));
  patcher.lines.push_back(make_line("obj-2", 1, "obj-3", 1));
  for (JsonStyle style : {JsonStyle::tabs, JsonStyle::spaces}) {
    patcher.style = style;
    const std::string text = write_maxpat(patcher);
    EXPECT_EQ(read_ok(text), patcher);
    EXPECT_EQ(write_maxpat(read_ok(text)), text);
  }
}

TEST(PatcherTest, ErrorsNameTheProblem) {
  EXPECT_NE(read_error(R"({"patcher": {"boxes": [{"box": {"maxclass": "x"}}]}})")
                .find("box 1 of the patcher has no \"id\""),
            std::string::npos);
  EXPECT_NE(read_error(R"({"patcher": {"boxes": [{"box": {"id": "a"}}]}})").find("maxclass"),
            std::string::npos);
  EXPECT_NE(read_error(R"({"patcher": {"boxes": [{"box": {"id": "a", "maxclass": "x"}},
                                                 {"box": {"id": "a", "maxclass": "y"}}]}})")
                .find("two boxes of the patcher have the id \"a\""),
            std::string::npos);
  EXPECT_NE(read_error(R"({"patcher": {"lines": [{"patchline": {"source": ["a", 0]}}]}})")
                .find("line 1 of the patcher has no \"destination\""),
            std::string::npos);
}

}  // namespace
}  // namespace fcp::lofi::maxpat
