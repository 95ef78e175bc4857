// The order within tiers is kept by its routes' figures: fewer crossings first; with as many
// crossings, fewer routes near shapes (closer than kShapeClearance to a shape not their end,
// which the reply warns about); then the shorter way. Never more pairs of edges on one line.
#include <gtest/gtest.h>

#include "domains/drawio/layout/edge_labels.hpp"

namespace fcp::drawio::layout::detail {
namespace {

RouteFigures figures(int crossings, int near_shapes, double length, int one_line = 0) {
  RouteFigures f;
  f.crossings = crossings;
  f.near_shapes = near_shapes;
  f.length = length;
  f.one_line = one_line;
  return f;
}

TEST(RouteFigures, FewerCrossingsWinWhateverTheRest) {
  EXPECT_TRUE(routes_better(figures(3, 5, 900), figures(4, 0, 500)));
  EXPECT_FALSE(routes_better(figures(4, 0, 500), figures(3, 5, 900)));
}

TEST(RouteFigures, WithEqualCrossingsFewerRoutesNearShapesWinEvenWhenLonger) {
  EXPECT_TRUE(routes_better(figures(4, 1, 900), figures(4, 2, 500)));
  EXPECT_FALSE(routes_better(figures(4, 2, 500), figures(4, 1, 900)));
}

TEST(RouteFigures, WithEqualCrossingsAndShapesNearTheShorterWins) {
  EXPECT_TRUE(routes_better(figures(4, 1, 499), figures(4, 1, 500)));
  EXPECT_FALSE(routes_better(figures(4, 1, 500), figures(4, 1, 499)));
  // Less than half a pixel shorter is as long: the order in place is kept.
  EXPECT_FALSE(routes_better(figures(4, 1, 499.8), figures(4, 1, 500)));
  EXPECT_FALSE(routes_better(figures(4, 1, 500), figures(4, 1, 500)));
}

TEST(RouteFigures, MorePairsOnOneLineNeverWin) {
  EXPECT_FALSE(routes_better(figures(0, 0, 100, 1), figures(9, 9, 900, 0)));
  EXPECT_TRUE(routes_better(figures(3, 0, 100, 1), figures(4, 0, 100, 2)));
}

}  // namespace
}  // namespace fcp::drawio::layout::detail
