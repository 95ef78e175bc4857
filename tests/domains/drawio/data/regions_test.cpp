#include "domains/drawio/data/regions.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fcp::drawio::data {
namespace {

TEST(DirectionsTest, EveryNameRoundTrips) {
  ASSERT_EQ(direction_names().size(), 8U);
  for (const std::string_view name : direction_names()) {
    const std::optional<Direction8> direction = parse_direction(name);
    ASSERT_TRUE(direction.has_value()) << name;
    EXPECT_EQ(direction_name(*direction), name);
  }
}

TEST(DirectionsTest, NamesMatchTheEnum) {
  EXPECT_EQ(direction_name(Direction8::below), "below");
  EXPECT_EQ(direction_name(Direction8::above), "above");
  EXPECT_EQ(direction_name(Direction8::left), "left");
  EXPECT_EQ(direction_name(Direction8::right), "right");
  EXPECT_EQ(direction_name(Direction8::below_right), "below-right");
  EXPECT_EQ(direction_name(Direction8::below_left), "below-left");
  EXPECT_EQ(direction_name(Direction8::above_right), "above-right");
  EXPECT_EQ(direction_name(Direction8::above_left), "above-left");
}

TEST(DirectionsTest, AliasesCaseAndUnderscores) {
  EXPECT_EQ(parse_direction("down"), Direction8::below);
  EXPECT_EQ(parse_direction("bottom"), Direction8::below);
  EXPECT_EQ(parse_direction("up"), Direction8::above);
  EXPECT_EQ(parse_direction("top"), Direction8::above);
  EXPECT_EQ(parse_direction("Above_Left"), Direction8::above_left);
  EXPECT_EQ(parse_direction("BELOW-RIGHT"), Direction8::below_right);
  EXPECT_EQ(parse_direction("down-left"), Direction8::below_left);
  EXPECT_EQ(parse_direction("top-right"), Direction8::above_right);
}

TEST(DirectionsTest, UnknownIsNullopt) {
  EXPECT_EQ(parse_direction("sideways"), std::nullopt);
  EXPECT_EQ(parse_direction(""), std::nullopt);
  EXPECT_EQ(parse_direction("below right"), std::nullopt);
}

TEST(RegionsTest, NineNamesInGridOrder) {
  std::vector<std::string> names(region_names().begin(), region_names().end());
  EXPECT_THAT(names,
              testing::ElementsAre("top-left", "top-center", "top-right", "middle-left", "center",
                                   "middle-right", "bottom-left", "bottom-center", "bottom-right"));
}

TEST(RegionsTest, RowAndColumnOfEachRegion) {
  EXPECT_EQ(parse_region("top-left"), (std::pair{0, 0}));
  EXPECT_EQ(parse_region("top-center"), (std::pair{0, 1}));
  EXPECT_EQ(parse_region("top-right"), (std::pair{0, 2}));
  EXPECT_EQ(parse_region("middle-left"), (std::pair{1, 0}));
  EXPECT_EQ(parse_region("center"), (std::pair{1, 1}));
  EXPECT_EQ(parse_region("middle-right"), (std::pair{1, 2}));
  EXPECT_EQ(parse_region("bottom-left"), (std::pair{2, 0}));
  EXPECT_EQ(parse_region("bottom-center"), (std::pair{2, 1}));
  EXPECT_EQ(parse_region("bottom-right"), (std::pair{2, 2}));
}

TEST(RegionsTest, CaseAliasesAndUnknown) {
  EXPECT_EQ(parse_region("TOP-LEFT"), (std::pair{0, 0}));
  EXPECT_EQ(parse_region("bottom_right"), (std::pair{2, 2}));
  EXPECT_EQ(parse_region("middle-center"), (std::pair{1, 1}));
  EXPECT_EQ(parse_region("middle"), (std::pair{1, 1}));
  EXPECT_EQ(parse_region("nowhere"), std::nullopt);
  EXPECT_EQ(parse_region("100,200"), std::nullopt);
  EXPECT_EQ(parse_region(""), std::nullopt);
}

}  // namespace
}  // namespace fcp::drawio::data
