// The patcher-level "parameters" dictionary: written for a new device's Live parameters as Max
// writes it, kept where it matches, updated where a parameter changed, left out where the file
// had none.
#include "domains/lofi/maxpat/parameters.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

Box dial(const std::string& id, const std::string& longname, const std::string& shortname = {}) {
  Box box;
  box.json = json::object{{"id", id}, {"maxclass", "live.dial"}, {"parameter_enable", 1}};
  json::object valueof{{"parameter_longname", longname}};
  if (!shortname.empty()) valueof["parameter_shortname"] = shortname;
  box.json["saved_attribute_attributes"] = json::object{{"valueof", valueof}};
  return box;
}

Patcher with_boxes(std::vector<Box> boxes) {
  Patcher patcher;
  patcher.json = json::object{{"fileversion", 1},
                              {"rect", json::array{0, 0, 600, 170}},
                              {"assistshowspatchername", 0},
                              {"autosave", 0}};
  patcher.boxes = std::move(boxes);
  return patcher;
}

TEST(ParametersDict, ANewDeviceGetsTheEntriesBankAndShortnameKeysAfterLines) {
  // Front to back, as in a file: Depth (the newest) first, Wow Rate behind it.
  Patcher patcher = with_boxes({dial("obj-10", "Depth"), dial("obj-2", "Wow Rate", "Rate")});
  Box plain;
  plain.json = json::object{{"id", "obj-3"}, {"maxclass", "newobj"}, {"text", "cycle~ 440"}};
  patcher.boxes.push_back(plain);
  update_parameters(patcher, true);
  const json::value expected = json::parse(R"({
    "obj-10": ["Depth", "Depth", 0],
    "obj-2": ["Wow Rate", "Rate", 0],
    "parameterbanks": {"0": {"index": 0, "name": "",
        "parameters": ["Wow Rate", "Depth", "-", "-", "-", "-", "-", "-"]}},
    "inherited_shortname": 1})");
  EXPECT_EQ(patcher.json.at("parameters"), expected);
  const json::object written = patcher_to_json(patcher);
  std::vector<std::string> keys;
  for (const auto& entry : written)
    keys.emplace_back(entry.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"fileversion", "rect", "assistshowspatchername",
                                            "boxes", "lines", "parameters", "autosave"}));
}

TEST(ParametersDict, KeepsMatchingEntriesAndOtherKeysAndFollowsChanges) {
  Patcher patcher = with_boxes({dial("obj-1", "Gain"), dial("obj-5", "Mix")});
  patcher.json["parameters"] = json::parse(R"({
    "obj-1": ["Gain", "Gn", 0],
    "obj-5": ["Old Mix", "Old", 0],
    "obj-7": ["Gone", "Gone", 0],
    "obj-1::obj-3": ["Inner", "Inner", 0],
    "obj-9::obj-3": ["Orphan", "Orphan", 0],
    "parameterbanks": {"0": {"index": 0, "name": "Mine", "parameters": ["Gain"]}},
    "inherited_shortname": 1})");
  update_parameters(patcher, false);
  const json::value expected = json::parse(R"({
    "obj-1": ["Gain", "Gn", 0],
    "obj-1::obj-3": ["Inner", "Inner", 0],
    "obj-5": ["Mix", "Mix", 0],
    "parameterbanks": {"0": {"index": 0, "name": "Mine", "parameters": ["Gain"]}},
    "inherited_shortname": 1})");
  EXPECT_EQ(patcher.json.at("parameters"), expected);
  // The last parameter gone: the dictionary goes too.
  patcher.boxes.clear();
  update_parameters(patcher, false);
  EXPECT_FALSE(patcher.json.contains("parameters"));
}

TEST(ParametersDict, AFileWithoutOneStaysWithoutAndNoParametersWriteNone) {
  Patcher abstraction = with_boxes({dial("obj-1", "MyParameter")});
  update_parameters(abstraction, false);
  EXPECT_FALSE(abstraction.json.contains("parameters"));
  Patcher none = with_boxes({});
  update_parameters(none, true);
  EXPECT_FALSE(none.json.contains("parameters"));
  // parameter_enable 0: no Live parameter.
  Patcher disabled = with_boxes({dial("obj-1", "Off")});
  disabled.boxes[0].json["parameter_enable"] = 0;
  update_parameters(disabled, true);
  EXPECT_FALSE(disabled.json.contains("parameters"));
}

}  // namespace
}  // namespace fcp::lofi::maxpat
