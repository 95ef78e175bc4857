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

// Issue 13: an expert reviewer read labels 4-7 px beside a shape that was not their edge's end as
// that shape's. The label slides along its route clear of it (9 px or more, as the batch
// warnings judge it) when the route allows.
TEST(EdgeLabels, ALabelSlidesAwayFromAShapeBesideTheMiddleOfItsRoute) {
  // A -> B runs straight at y 20 from x 80 to 400; C sits 4 px under the middle's label box
  // (x 218.5 … 261.5, y 11 … 29).
  Drawing drawing;
  drawing.nodes = {Box{0, 0, 80, 40}, Box{400, 0, 80, 40}, Box{220, 33, 40, 40}};
  IndexedGraph graph;
  graph.edges = {IndexedGraph::Edge{0, 1}};
  LayoutEdge edge;
  edge.id = "e";
  edge.source = "a";
  edge.target = "b";
  edge.label_width = 43;
  edge.label_height = 18;
  std::vector<EdgeRoute> routes(1);
  routes[0].id = "e";
  place_labels(drawing, graph, {edge}, routes, {}, {});
  ASSERT_TRUE(routes[0].label_position);
  // Relative position p puts the label's centre at x 240 + 160 p.
  const double centre = 240 + 160 * *routes[0].label_position;
  EXPECT_TRUE(centre - 21.5 >= 260 + 9 || centre + 21.5 <= 220 - 9) << centre;
  // Without C the middle is best.
  drawing.nodes.pop_back();
  place_labels(drawing, graph, {edge}, routes, {}, {});
  EXPECT_EQ(routes[0].label_position, 0.0);
}

}  // namespace
}  // namespace fcp::drawio::layout::detail
