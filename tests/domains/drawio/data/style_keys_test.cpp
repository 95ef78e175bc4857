#include "domains/drawio/data/style_keys.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

namespace fcp::drawio::data {
namespace {

TEST(StyleKeysTest, SortedForBinarySearch) {
  const auto keys = drawio_style_keys();
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
}

// Every key fcp writes on edges (connect's defaults, its style words and ports) must be one
// `style` and `modify` accept back, or an edge fcp made could not be changed by its own keys.
TEST(StyleKeysTest, EveryKeyFcpWritesOnEdgesIsAccepted) {
  for (std::string_view key :
       {"edgeStyle",   "rounded",     "orthogonalLoop", "jettySize", "html",
        "dashed",      "dashPattern", "flowAnimation",  "curved",    "strokeWidth",
        "strokeColor", "startArrow",  "startFill",      "endArrow",  "endFill",
        "exitX",       "exitY",       "exitDx",         "exitDy",    "entryX",
        "entryY",      "entryDx",     "entryDy",        "jumpStyle", "jumpSize",
        "elbow",       "loopStyle",   "segment"})
    EXPECT_TRUE(is_drawio_style_key(key)) << key;
}

TEST(StyleKeysTest, ValueRulesNameKnownKeysAndAreSorted) {
  std::string_view previous;
  for (std::string_view key : drawio_style_keys()) {
    const StyleValueRule* rule = style_value_rule(key);
    if (rule == nullptr) continue;
    EXPECT_EQ(rule->key, key);
    EXPECT_EQ(rule->form == StyleValueForm::choice, !rule->choices.empty()) << key;
    EXPECT_LT(previous, key);
    previous = key;
  }
  EXPECT_EQ(style_value_rule("fillColor"), nullptr);  // colours are taken as written
  EXPECT_EQ(style_value_rule("nonsense"), nullptr);
}

TEST(StyleKeysTest, EdgeRoutingValuesAreDrawiosOwn) {
  const StyleValueRule* edge_style = style_value_rule("edgeStyle");
  ASSERT_NE(edge_style, nullptr);
  ASSERT_EQ(edge_style->form, StyleValueForm::choice);
  for (std::string_view value : {"orthogonalEdgeStyle", "elbowEdgeStyle", "entityRelationEdgeStyle",
                                 "isometricEdgeStyle", "none"})
    EXPECT_NE(std::find(edge_style->choices.begin(), edge_style->choices.end(), value),
              edge_style->choices.end())
        << value;
  const StyleValueRule* jumps = style_value_rule("jumpStyle");
  ASSERT_NE(jumps, nullptr);
  EXPECT_EQ(jumps->choices.size(), 5u);  // none arc gap sharp line
  EXPECT_EQ(style_value_rule("exitX")->form, StyleValueForm::number);
  EXPECT_EQ(style_value_rule("rounded")->form, StyleValueForm::flag);
}

}  // namespace
}  // namespace fcp::drawio::data
