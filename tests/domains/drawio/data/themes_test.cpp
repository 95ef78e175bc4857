#include "domains/drawio/data/themes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fcp::drawio::data {
namespace {

TEST(ThemesTest, NineBuiltInsWithReferenceColours) {
  std::vector<std::string> rows;
  for (const Theme& t : themes()) {
    rows.push_back(std::string(t.name) + " " + std::string(t.fill) + " " + std::string(t.stroke) +
                   " " + std::string(t.font_color));
  }
  // Reference inventory §1.3.
  EXPECT_THAT(rows, testing::ElementsAre("blue #dae8fc #6c8ebf ", "green #d5e8d4 #82b366 ",
                                         "red #f8cecc #b85450 ", "yellow #fff2cc #d6b656 ",
                                         "orange #ffe6cc #d79b00 ", "purple #e1d5e7 #9673a6 ",
                                         "gray #f5f5f5 #666666 ", "dark #1a1a2e #16213e #e0e0e0",
                                         "white #ffffff #000000 "));
}

TEST(ThemesTest, FindIgnoresCase) {
  ASSERT_NE(find_theme("dark"), nullptr);
  EXPECT_EQ(find_theme("dark")->font_color, "#e0e0e0");
  ASSERT_NE(find_theme("Blue"), nullptr);
  EXPECT_EQ(find_theme("Blue")->fill, "#dae8fc");
  EXPECT_EQ(find_theme("rainbow"), nullptr);
  EXPECT_EQ(find_theme(""), nullptr);
}

TEST(ThemesTest, ReverseLookupByFill) {
  ASSERT_NE(theme_with_fill("#dae8fc"), nullptr);
  EXPECT_EQ(theme_with_fill("#dae8fc")->name, "blue");
  ASSERT_NE(theme_with_fill("#DAE8FC"), nullptr);
  EXPECT_EQ(theme_with_fill("#DAE8FC")->name, "blue");
  EXPECT_EQ(theme_with_fill("#1A1A2E")->name, "dark");
  EXPECT_EQ(theme_with_fill("#6c8ebf"), nullptr);  // a stroke, not a fill
  EXPECT_EQ(theme_with_fill("#123456"), nullptr);
  EXPECT_EQ(theme_with_fill("blue"), nullptr);
}

}  // namespace
}  // namespace fcp::drawio::data
