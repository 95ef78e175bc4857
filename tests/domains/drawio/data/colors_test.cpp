#include "domains/drawio/data/colors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

namespace fcp::drawio::data {
namespace {

TEST(ColorsTest, HexFormsAreLowercasedAndExpanded) {
  EXPECT_EQ(parse_color("#ABC"), std::optional<std::string>("#aabbcc"));
  EXPECT_EQ(parse_color("#abc"), std::optional<std::string>("#aabbcc"));
  EXPECT_EQ(parse_color("#FF0000"), std::optional<std::string>("#ff0000"));
  EXPECT_EQ(parse_color("#1a2B3c"), std::optional<std::string>("#1a2b3c"));
}

TEST(ColorsTest, NamedColoursBecomeHex) {
  EXPECT_EQ(parse_color("red"), std::optional<std::string>("#ff0000"));
  EXPECT_EQ(parse_color("Red"), std::optional<std::string>("#ff0000"));
  EXPECT_EQ(parse_color("steelblue"), std::optional<std::string>("#4682b4"));
  EXPECT_EQ(parse_color("rebeccapurple"), std::optional<std::string>("#663399"));
  EXPECT_EQ(parse_color("gray"), std::optional<std::string>("#808080"));
  EXPECT_EQ(parse_color("grey"), std::optional<std::string>("#808080"));
  EXPECT_EQ(parse_color("green"), std::optional<std::string>("#008000"));  // CSS, not X11
}

TEST(ColorsTest, NoneIsAColour) {
  EXPECT_EQ(parse_color("none"), std::optional<std::string>("none"));
  EXPECT_EQ(parse_color("NONE"), std::optional<std::string>("none"));
}

TEST(ColorsTest, EverythingElseIsRejected) {
  EXPECT_EQ(parse_color("ff0000"), std::nullopt);  // hex without '#'
  EXPECT_EQ(parse_color("notacolor"), std::nullopt);
  EXPECT_EQ(parse_color(""), std::nullopt);
  EXPECT_EQ(parse_color("#"), std::nullopt);
  EXPECT_EQ(parse_color("#12345"), std::nullopt);
  EXPECT_EQ(parse_color("#1234567"), std::nullopt);
  EXPECT_EQ(parse_color("#ff000080"), std::nullopt);
  EXPECT_EQ(parse_color("#gggggg"), std::nullopt);
  EXPECT_EQ(parse_color(" red"), std::nullopt);
  EXPECT_EQ(parse_color("blue "), std::nullopt);
}

TEST(ColorsTest, AllCssNamedColoursSortedAndWellFormed) {
  const auto colors = css_colors();
  ASSERT_EQ(colors.size(), 148U);
  for (std::size_t i = 1; i < colors.size(); ++i) {
    EXPECT_LT(colors[i - 1].name, colors[i].name) << "table must stay sorted for binary search";
  }
  for (const NamedColor& c : colors) {
    EXPECT_EQ(parse_color(c.hex), std::optional<std::string>(c.hex)) << c.name;
    EXPECT_EQ(parse_color(c.name), std::optional<std::string>(c.hex)) << c.name;
  }
}

TEST(ColorsTest, FindCssColourIgnoresCase) {
  ASSERT_NE(find_css_color("AliceBlue"), nullptr);
  EXPECT_EQ(find_css_color("AliceBlue")->hex, "#f0f8ff");
  ASSERT_NE(find_css_color("yellowgreen"), nullptr);
  EXPECT_EQ(find_css_color("yellowgreen")->hex, "#9acd32");
  EXPECT_EQ(find_css_color("transparent"), nullptr);
  EXPECT_EQ(find_css_color("zzz"), nullptr);
  EXPECT_EQ(find_css_color(""), nullptr);
}

TEST(ColorsTest, HelpNamesTheAcceptedForms) {
  const std::string help(color_help());
  EXPECT_THAT(help, testing::HasSubstr("#RRGGBB"));
  EXPECT_THAT(help, testing::HasSubstr("CSS colour name"));
  EXPECT_THAT(help, testing::HasSubstr("theme"));
}

}  // namespace
}  // namespace fcp::drawio::data
