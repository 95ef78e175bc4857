// Edge geometry: perimeters, routing, points along a route and arrowheads.
#include "domains/drawio/export/svg_edges.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "domains/drawio/rect.hpp"

namespace fcp::drawio::render::detail {
namespace {

constexpr double kEpsilon = 1e-6;

bool on_boundary(const Box& b, Vec p) {
  const bool inside_x = p.x >= b.x - kEpsilon && p.x <= b.right() + kEpsilon;
  const bool inside_y = p.y >= b.y - kEpsilon && p.y <= b.bottom() + kEpsilon;
  const bool on_vertical = std::abs(p.x - b.x) < kEpsilon || std::abs(p.x - b.right()) < kEpsilon;
  const bool on_horizontal =
      std::abs(p.y - b.y) < kEpsilon || std::abs(p.y - b.bottom()) < kEpsilon;
  return inside_x && inside_y && (on_vertical || on_horizontal);
}

void expect_axis_parallel(const std::vector<Vec>& route) {
  for (std::size_t i = 1; i < route.size(); ++i) {
    EXPECT_TRUE(route[i].x == route[i - 1].x || route[i].y == route[i - 1].y)
        << "segment " << i << " (" << route[i - 1].x << "," << route[i - 1].y << ") → ("
        << route[i].x << "," << route[i].y << ")";
  }
}

// Whether a segment of the route runs through the inside of `box` (1 px in from its border).
bool enters(const std::vector<Vec>& route, const Box& box) {
  const Rect r{box.x, box.y, box.w, box.h};
  for (std::size_t i = 1; i < route.size(); ++i) {
    if (r.segment_enters(route[i - 1].x, route[i - 1].y, route[i].x, route[i].y, 1)) return true;
  }
  return false;
}

Cell edge_with(std::string_view style) {
  Cell cell;
  cell.edge = true;
  cell.style = Style::parse(style);
  return cell;
}

TEST(Perimeter, MeetsTheOutlineOnTheRayToTheTarget) {
  const Box box{0, 0, 100, 50};
  const Vec right = perimeter_point(box, Perimeter::rectangle, {200, 25});
  EXPECT_NEAR(right.x, 100, kEpsilon);
  EXPECT_NEAR(right.y, 25, kEpsilon);
  const Vec corner = perimeter_point(box, Perimeter::rectangle, {150, 75});
  EXPECT_TRUE(on_boundary(box, corner));
  const Vec ellipse = perimeter_point(box, Perimeter::ellipse, {50 + 100, 25 + 100});
  EXPECT_NEAR(std::pow((ellipse.x - 50) / 50, 2) + std::pow((ellipse.y - 25) / 25, 2), 1, 1e-9);
  const Vec rhombus = perimeter_point(box, Perimeter::rhombus, {50, 200});
  EXPECT_NEAR(rhombus.x, 50, kEpsilon);
  EXPECT_NEAR(rhombus.y, 50, kEpsilon);
  EXPECT_EQ(perimeter_point(box, Perimeter::rectangle, {50, 25}), (Vec{50, 25}));
}

// Edges meet a hexagon's and a parallelogram's slanted sides, not their boxes (session 10).
TEST(Perimeter, HexagonAndParallelogramMeetTheirSlantedSides) {
  const Box box{0, 0, 100, 40};
  // Hexagon with 20 px slants: corners (20,0) (80,0) (100,20) (80,40) (20,40) (0,20).
  const Vec side = perimeter_point(box, Perimeter::hexagon, {300, 20}, 20);
  EXPECT_NEAR(side.x, 100, kEpsilon);
  EXPECT_NEAR(side.y, 20, kEpsilon);
  // Towards the lower right, shallow: on the slant x + y = 120 between (100,20) and (80,40),
  // inside the box's corner (the box's side would be met at (100,30)).
  const Vec slant = perimeter_point(box, Perimeter::hexagon, {150, 40}, 20);
  EXPECT_NEAR(slant.x + slant.y, 120, kEpsilon);
  EXPECT_LT(slant.x, 100 - 1);
  EXPECT_LT(slant.y, 40 - 1);
  // Straight up: the flat top.
  const Vec top = perimeter_point(box, Perimeter::hexagon, {50, -100}, 20);
  EXPECT_NEAR(top.y, 0, kEpsilon);
  // Parallelogram with 20 px slant: corners (0,40) (20,0) (100,0) (80,40). Towards the left
  // at the centre's height: on the left slant at x 10, not the box's side at x 0.
  const Vec left = perimeter_point(box, Perimeter::parallelogram, {-200, 20}, 20);
  EXPECT_NEAR(left.x, 10, kEpsilon);
  EXPECT_NEAR(left.y, 20, kEpsilon);
  const Vec right = perimeter_point(box, Perimeter::parallelogram, {300, 20}, 20);
  EXPECT_NEAR(right.x, 90, kEpsilon);
}

// The scene reads the perimeter and its size from the shape's style (fcp's `api` type is a
// hexagon with perimeter=hexagonPerimeter2, fixedSize=1, size=20).
TEST(RouteEdge, AnEdgeIntoAHexagonEndsOnItsSlant) {
  const Cell edge = edge_with("");
  const StyleView style(edge, true);
  const Terminal source{Box{0, 0, 100, 40}, Perimeter::rectangle, std::nullopt};
  const Terminal target{Box{300, 100, 100, 40}, Perimeter::hexagon, std::nullopt, 20};
  const auto route = route_edge(style, source, target, {{350, 20}});
  ASSERT_FALSE(route.empty());
  // From straight above the centre: the flat top at y 100.
  EXPECT_NEAR(route.back().y, 100, kEpsilon);
  const auto diagonal = route_edge(style, source, target, {});
  ASSERT_FALSE(diagonal.empty());
  const Vec end = diagonal.back();
  // From the upper left: on the slant from (300,120) to (320,100), off the box's corner.
  EXPECT_NEAR((end.x - 300) + (end.y - 100), 20, kEpsilon);
  EXPECT_GT(end.x, 300 + 1);
}

TEST(RouteEdge, StraightEdgesRunFromPerimeterThroughWaypointsToPerimeter) {
  const Cell edge = edge_with("");
  const StyleView style(edge, true);
  const Terminal source{Box{0, 0, 100, 50}, Perimeter::rectangle, std::nullopt};
  const Terminal target{Box{300, 0, 100, 50}, Perimeter::rectangle, std::nullopt};
  const auto direct = route_edge(style, source, target, {});
  ASSERT_EQ(direct.size(), 2u);
  EXPECT_EQ(direct.front(), (Vec{100, 25}));
  EXPECT_EQ(direct.back(), (Vec{300, 25}));

  const auto bent = route_edge(style, source, target, {{50, 150}, {350, 150}});
  ASSERT_EQ(bent.size(), 4u);
  EXPECT_EQ(bent.front(), (Vec{50, 50}));  // straight down from the centre
  EXPECT_EQ(bent[1], (Vec{50, 150}));
  EXPECT_EQ(bent[2], (Vec{350, 150}));
  EXPECT_EQ(bent.back(), (Vec{350, 50}));
}

TEST(RouteEdge, FreeEndsUseTheirPointsAndMissingEndsGiveNothing) {
  const Cell edge = edge_with("");
  const StyleView style(edge, true);
  const Terminal from{std::nullopt, Perimeter::rectangle, Vec{0, 0}};
  const Terminal to{std::nullopt, Perimeter::rectangle, Vec{100, 100}};
  EXPECT_EQ(route_edge(style, from, to, {}), (std::vector<Vec>{{0, 0}, {100, 100}}));
  EXPECT_TRUE(route_edge(style, from, Terminal{}, {}).empty());
}

TEST(RouteEdge, OrthogonalEdgesWithoutWaypointsMakeAnElbow) {
  const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;");
  const StyleView style(edge, true);
  const Box a{0, 0, 100, 50}, b{300, 200, 100, 50};
  const auto route = route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                                {b, Perimeter::rectangle, std::nullopt}, {});
  ASSERT_GE(route.size(), 3u);
  expect_axis_parallel(route);
  EXPECT_TRUE(on_boundary(a, route.front()));
  EXPECT_TRUE(on_boundary(b, route.back()));

  // Side by side with overlapping rows: one straight horizontal segment.
  const Box c{300, 10, 100, 50};
  const auto straight = route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                                   {c, Perimeter::rectangle, std::nullopt}, {});
  ASSERT_EQ(straight.size(), 2u);
  EXPECT_EQ(straight.front().y, straight.back().y);
}

TEST(RouteEdge, OrthogonalEdgesHonourConstraintsAndWaypoints) {
  const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;");
  const StyleView style(edge, true);
  const Box a{0, 0, 100, 50}, b{300, 200, 100, 50};
  // exitX=0.5, exitY=1 (bottom middle) into entryX=0, entryY=0.5 (left middle): an L.
  const auto route = route_edge(style, {a, Perimeter::rectangle, Vec{50, 50}},
                                {b, Perimeter::rectangle, Vec{300, 225}}, {});
  EXPECT_EQ(route, (std::vector<Vec>{{50, 50}, {50, 225}, {300, 225}}));

  const auto through = route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                                  {b, Perimeter::rectangle, std::nullopt}, {{200, 100}});
  expect_axis_parallel(through);
  EXPECT_NE(std::find(through.begin(), through.end(), Vec{200, 100}), through.end());
}

// Trial 10: orthogonal arrows into a hexagon or a cloud stopped at the bounding box, short of
// the outline. They end where their last run meets the outline, as in draw.io.
TEST(RouteEdge, OrthogonalEdgesEndOnTheOutlineOfRoundAndSlantedShapes) {
  const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;");
  const StyleView style(edge, true);
  const Box a{0, 0, 100, 50};
  const Box hexagon{300, 0, 120, 60};
  // A run level with the hexagon's top quarter meets its slanted left side, inside the box.
  const auto into_hexagon =
      route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                 {hexagon, Perimeter::hexagon, Vec{300, 15}, 20}, {{200, 15}});
  ASSERT_GE(into_hexagon.size(), 2u);
  expect_axis_parallel(into_hexagon);
  EXPECT_NEAR(into_hexagon.back().y, 15, kEpsilon);
  EXPECT_NEAR(into_hexagon.back().x, 310, 0.01);  // slant from (300,30) to (320,0)
  // Into an ellipse (a cloud's perimeter) off its middle: on the ellipse, right of its box.
  const Box cloud{300, 100, 140, 60};
  const auto into_cloud = route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                                     {cloud, Perimeter::ellipse, Vec{300, 115}, 0}, {{200, 115}});
  ASSERT_GE(into_cloud.size(), 2u);
  const Vec end = into_cloud.back();
  EXPECT_NEAR(std::hypot((end.x - 370) / 70, (end.y - 130) / 30), 1, 0.01);
  EXPECT_GT(end.x, 300 + 5);
  // A rhombus's point and the middle of an ellipse's side are on the box already: unchanged.
  const auto into_rhombus =
      route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                 {Box{300, 200, 100, 60}, Perimeter::rhombus, Vec{300, 230}}, {{200, 230}});
  ASSERT_GE(into_rhombus.size(), 2u);
  EXPECT_NEAR(into_rhombus.back().x, 300, kEpsilon);
  // A rectangle (and a cylinder, drawn with one) keeps its side.
  const auto into_box =
      route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                 {Box{300, 300, 100, 60}, Perimeter::rectangle, Vec{300, 310}}, {{200, 310}});
  ASSERT_GE(into_box.size(), 2u);
  EXPECT_NEAR(into_box.back().x, 300, kEpsilon);
}

TEST(RouteEdge, ElbowEdgesFollowTheElbowDirection) {
  const Cell edge = edge_with("edgeStyle=elbowEdgeStyle;elbow=vertical;");
  const StyleView style(edge, true);
  const auto route = route_edge(style, {Box{0, 0, 100, 50}, Perimeter::rectangle, std::nullopt},
                                {Box{300, 30, 100, 50}, Perimeter::rectangle, std::nullopt}, {});
  ASSERT_GE(route.size(), 4u);
  expect_axis_parallel(route);
  EXPECT_EQ(route[0].x, route[1].x);  // leaves vertically
  // The boxes' rows overlap: the bottom port faces away from the target's top one. The route
  // runs round both boxes (it turned back up through the source before issue 13's fix).
  EXPECT_GT(route[1].y, 50);
  EXPECT_FALSE(enters(route, Box{0, 0, 100, 50}));
  EXPECT_FALSE(enters(route, Box{300, 30, 100, 50}));
}

// Issue 13: a fixed port facing away from the other end was drawn straight back through its own
// shape. draw.io leaves the port outward first (a jetty), then turns round the shape.
TEST(RouteEdge, FixedPortsFacingAwayLeaveOutwardAndNeverCrossTheirOwnShape) {
  const Box a{100, 100, 80, 60}, b{300, 100, 80, 60};
  {
    const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;exitX=0;exitY=0.5;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {a, Perimeter::rectangle, Vec{100, 130}},
                                  {b, Perimeter::rectangle, std::nullopt}, {});
    ASSERT_GE(route.size(), 3u);
    expect_axis_parallel(route);
    EXPECT_EQ(route.front(), (Vec{100, 130}));
    EXPECT_EQ(route[1], (Vec{90, 130}));  // out of the left side first, orthBuffer (10 px)
    EXPECT_FALSE(enters(route, a));
    EXPECT_FALSE(enters(route, b));
  }
  {
    // jettySize=auto (draw.io's default edges): 20 px out of a port without an arrow.
    const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;exitX=0;exitY=0.5;jettySize=auto;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {a, Perimeter::rectangle, Vec{100, 130}},
                                  {b, Perimeter::rectangle, std::nullopt}, {});
    ASSERT_GE(route.size(), 3u);
    EXPECT_EQ(route[1], (Vec{80, 130}));
    EXPECT_FALSE(enters(route, a));
  }
  {
    // A free end straight below a bottom port (a bus line's point): one straight run, even
    // where the style's axis is horizontal (elbowEdgeStyle without elbow=vertical).
    const Cell edge = edge_with("edgeStyle=elbowEdgeStyle;exitX=0.5;exitY=1;jettySize=auto;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {a, Perimeter::rectangle, Vec{140, 160}},
                                  {std::nullopt, Perimeter::rectangle, Vec{140, 220}}, {});
    EXPECT_EQ(route, (std::vector<Vec>{{140, 160}, {140, 220}}));
  }
  {
    // A port off every side (entryX=0.1 inside a brace's box, at its tip) has no side to leave
    // from in draw.io: the route comes straight in from the source, as before.
    const Cell edge = edge_with(
        "edgeStyle=orthogonalEdgeStyle;exitX=0;exitY=0.5;entryX=0.1;"
        "entryY=0.5;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {b, Perimeter::rectangle, Vec{300, 130}},
                                  {a, Perimeter::rectangle, Vec{108, 130}}, {});
    EXPECT_EQ(route, (std::vector<Vec>{{300, 130}, {108, 130}}));
  }
  {
    // An automatic port where the boxes touch lies on a corner; it still leaves the side facing
    // the other end (the corpus' medical-diagrams page 8: a junction under a table row).
    const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;entryX=0.5;entryY=1;");
    const StyleView style(edge, true);
    const auto route =
        route_edge(style, {Box{925, 250, 40, 40}, Perimeter::rectangle, std::nullopt},
                   {Box{725, 142, 200, 26}, Perimeter::rectangle, Vec{825, 168}}, {});
    EXPECT_EQ(route, (std::vector<Vec>{{925, 250}, {925, 209}, {825, 209}, {825, 168}}));
  }
  {
    // The target's port on its far side, under the source's row: round the target, not through.
    const Cell edge = edge_with("edgeStyle=orthogonalEdgeStyle;entryX=1;entryY=0.5;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {a, Perimeter::rectangle, std::nullopt},
                                  {b, Perimeter::rectangle, Vec{380, 130}}, {});
    ASSERT_GE(route.size(), 3u);
    expect_axis_parallel(route);
    EXPECT_EQ(route.back(), (Vec{380, 130}));
    EXPECT_GT(route[route.size() - 2].x, 380);  // arrives from the right, heading left
    EXPECT_FALSE(enters(route, a));
    EXPECT_FALSE(enters(route, b));
  }
  {
    // Both ports face away, vertically: out of a's top, into b's bottom.
    const Box below{300, 300, 80, 60};
    const Cell edge =
        edge_with("edgeStyle=orthogonalEdgeStyle;exitX=0.5;exitY=0;entryX=0.5;entryY=1;");
    const StyleView style(edge, true);
    const auto route = route_edge(style, {a, Perimeter::rectangle, Vec{140, 100}},
                                  {below, Perimeter::rectangle, Vec{340, 360}}, {});
    ASSERT_GE(route.size(), 4u);
    expect_axis_parallel(route);
    EXPECT_LT(route[1].y, 100);
    EXPECT_GT(route[route.size() - 2].y, 360);
    EXPECT_FALSE(enters(route, a));
    EXPECT_FALSE(enters(route, below));
  }
}

TEST(PointOnRoute, FindsTheMidpointAndOffsetsAcrossTheSegment) {
  const std::vector<Vec> route{{0, 0}, {100, 0}, {100, 100}};
  EXPECT_EQ(point_on_route(route, 0, 0, {}), (Vec{100, 0}));
  EXPECT_EQ(point_on_route(route, -0.5, 0, {}), (Vec{50, 0}));
  EXPECT_EQ(point_on_route(route, 1, 0, {}), (Vec{100, 100}));
  const Vec across = point_on_route(route, -0.5, 10, {});
  EXPECT_EQ(across.x, 50);
  EXPECT_EQ(std::abs(across.y), 10);
  EXPECT_EQ(point_on_route(route, -0.5, 0, {5, 7}), (Vec{55, 7}));
}

TEST(Markers, ClassicArrowEndsAtTheTipAndShortensTheLine) {
  ArrowEnd end{{100, 0}, {1, 0}, 6, 1, true};
  const auto marker = make_marker("classic", end);
  ASSERT_TRUE(marker.has_value());
  ASSERT_EQ(marker->parts.size(), 1u);
  const MarkerPart& part = marker->parts.front();
  EXPECT_TRUE(part.closed);
  EXPECT_EQ(part.fill, MarkerPart::Fill::stroke);
  EXPECT_EQ(part.points.size(), 4u);  // tip, wing, notch, wing
  EXPECT_NEAR(part.points.front().x, 100 - 1.118, 1e-9);
  EXPECT_LT(marker->line_end.x, 100);
  end.filled = false;
  EXPECT_EQ(make_marker("block", end)->parts.front().fill, MarkerPart::Fill::none);
}

TEST(Markers, KnowsTheCommonKindsAndNothingElse) {
  const ArrowEnd end{{0, 0}, {0, 1}, 6, 1, true};
  for (std::string_view kind :
       {"classic",   "classicThin", "block",       "blockThin",   "open",
        "openThin",  "oval",        "diamond",     "diamondThin", "box",
        "dash",      "cross",       "circle",      "circlePlus",  "baseDash",
        "async",     "openAsync",   "doubleBlock", "halfCircle",  "ERone",
        "ERmandOne", "ERmany",      "ERoneToMany", "ERzeroToOne", "ERzeroToMany"}) {
    EXPECT_TRUE(make_marker(kind, end).has_value()) << kind;
  }
  EXPECT_FALSE(make_marker("none", end).has_value());
  EXPECT_FALSE(make_marker("", end).has_value());
  EXPECT_FALSE(make_marker("sparkles", end).has_value());
  EXPECT_EQ(make_marker("ERmany", end)->parts.size(), 2u);
}

}  // namespace
}  // namespace fcp::drawio::render::detail
