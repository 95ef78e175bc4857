#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "domains/drawio/layout/drawing.hpp"
#include "domains/drawio/layout/edge_routes.hpp"
#include "domains/drawio/layout/graph_layout.hpp"
#include "layout_test_support.hpp"

namespace fcp::drawio::layout {
namespace {

using namespace test_support;  // NOLINT(google-build-using-namespace): test builders

Point2 centre(const Rect& r) {
  return Point2{r.cx(), r.cy()};
}

// A port of a box: its centre, or the point at the route's exit/entry fractions.
Point2 port_of(const Rect& r, const std::optional<Point2>& port) {
  return port ? Point2{r.x + port->x * r.w, r.y + port->y * r.h} : centre(r);
}

// The full path of an edge: source port, waypoints, target port.
std::vector<Point2> path_of(const LayoutRequest& request, const LayoutResult& result,
                            const LayoutEdge& e) {
  const auto route = std::find_if(result.edges.begin(), result.edges.end(),
                                  [&](const EdgeRoute& r) { return r.id == e.id; });
  std::vector<Point2> path{port_of(box_of(request, result, e.source), route->exit)};
  const auto& waypoints = waypoints_of(result, e.id);
  path.insert(path.end(), waypoints.begin(), waypoints.end());
  path.push_back(port_of(box_of(request, result, e.target), route->entry));
  return path;
}

bool axis_aligned(Point2 a, Point2 b) {
  return std::abs(a.x - b.x) <= 0.5 || std::abs(a.y - b.y) <= 0.5;
}

// Whether the segment a–b passes through the inside of `box` (shrunk by 1 px).
bool crosses(Point2 a, Point2 b, const Rect& box) {
  const Rect inner{box.x + 1, box.y + 1, box.w - 2, box.h - 2};
  for (int step = 0; step <= 200; ++step) {
    const double t = step / 200.0;
    const double x = a.x + t * (b.x - a.x), y = a.y + t * (b.y - a.y);
    if (x > inner.x && x < inner.right() && y > inner.y && y < inner.bottom()) return true;
  }
  return false;
}

class OrthogonalRoutes : public ::testing::TestWithParam<std::tuple<Algorithm, Direction>> {};

TEST_P(OrthogonalRoutes, BendAtRightAnglesAroundOtherNodes) {
  const auto [algorithm, direction] = GetParam();
  LayoutRequest request;
  request.algorithm = algorithm;
  request.direction = direction;
  request.nodes = {node("a"), node("b", 80, 40), node("c", 200, 60), node("d"), node("e")};
  request.edges = {edge("a", "b"), edge("a", "c"), edge("b", "d"), edge("c", "e")};
  if (algorithm != Algorithm::tree) request.edges.push_back(edge("a", "d"));  // spans two rows
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  int bent = 0;
  for (const LayoutEdge& e : request.edges) {
    const std::vector<Point2> path = path_of(request, *result, e);
    bent += path.size() > 2 ? 1 : 0;
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      EXPECT_TRUE(axis_aligned(path[i], path[i + 1]))
          << e.id << " segment " << i << " (" << path[i].x << "," << path[i].y << ")→("
          << path[i + 1].x << "," << path[i + 1].y << ")";
      if (algorithm == Algorithm::force) continue;  // force routes avoid nothing
      for (const LayoutNode& other : request.nodes) {
        if (other.id == e.source || other.id == e.target) continue;
        EXPECT_FALSE(crosses(path[i], path[i + 1], box_of(request, *result, other.id)))
            << e.id << " runs through " << other.id;
      }
    }
  }
  EXPECT_GT(bent, 0);  // a fans out to two children: at least one edge is not straight
}

INSTANTIATE_TEST_SUITE_P(Layout, OrthogonalRoutes,
                         ::testing::Combine(::testing::Values(Algorithm::layered, Algorithm::tree,
                                                              Algorithm::force),
                                            ::testing::Values(Direction::TB, Direction::LR,
                                                              Direction::BT, Direction::RL)),
                         algorithm_and_direction_name);

TEST(OrthogonalRoutes, NonAlignedEdgeGetsTwoCornersBetweenTheRows) {
  // a over three children: b and d lie beside it, c under it.
  LayoutRequest request;
  request.nodes = {node("a"), node("b"), node("c"), node("d")};
  request.edges = {edge("a", "b"), edge("a", "c"), edge("a", "d")};
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  const Rect a = box_of(request, *result, "a"), b = box_of(request, *result, "b");
  const Rect d = box_of(request, *result, "d");
  ASSERT_TRUE(b.right() <= a.x || b.x >= a.right()) << "b beside a";
  ASSERT_TRUE(d.right() <= a.x || d.x >= a.right()) << "d beside a";
  // The edges leave a's bottom side at ports a quarter, a half and three quarters along it.
  for (const auto& [id, fraction, target] :
       {std::tuple{"a->b", 0.25, b}, std::tuple{"a->d", 0.75, d}}) {
    const auto& corners = waypoints_of(*result, id);
    ASSERT_EQ(corners.size(), 2u) << id;
    EXPECT_NEAR(corners[0].x, a.x + a.w * fraction, 1e-9) << id;
    EXPECT_DOUBLE_EQ(corners[1].x, target.cx()) << id;
    EXPECT_DOUBLE_EQ(corners[0].y, corners[1].y) << id;
    EXPECT_DOUBLE_EQ(corners[0].y, (a.bottom() + target.y) / 2) << id;
  }
  const EdgeRoute& route = result->edges[2];
  ASSERT_TRUE(route.exit.has_value());
  EXPECT_NEAR(route.exit->x, 0.75, 1e-9);
  EXPECT_EQ(route.exit->y, 1);
  EXPECT_FALSE(route.entry.has_value());
}

// Issue 13 (judge 8): an edge between shapes of neighbouring rows that overlap across the rows
// runs straight, its two ports on one line, even where its source's ports are spread for others
// (API Gateway -> Auth service stepped 25 px, the gateway's port put above Auth's side). Here a
// wide a over b and c: its ports a third and two thirds along its bottom lie over b and c but
// off their middles (each route stepped in the gap).
TEST(OrthogonalRoutes, EdgeBetweenOverlappingNeighboursRunsStraight) {
  LayoutRequest request;
  request.nodes = {node("a", 300), node("b"), node("c")};
  request.edges = {edge("a", "b"), edge("a", "c")};
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  const Rect a = box_of(request, *result, "a");
  for (size_t i = 0; i < 2; ++i) {
    const Rect t = box_of(request, *result, i == 0 ? "b" : "c");
    const EdgeRoute& route = result->edges[i];
    EXPECT_TRUE(route.waypoints.empty()) << route.id;
    ASSERT_TRUE(route.exit.has_value()) << route.id;
    ASSERT_TRUE(route.entry.has_value()) << route.id;
    EXPECT_EQ(route.exit->y, 1);
    EXPECT_EQ(route.entry->y, 0);
    const double from = a.x + route.exit->x * a.w, to = t.x + route.entry->x * t.w;
    EXPECT_NEAR(from, to, 0.5) << route.id;
    EXPECT_GE(from, t.x + 10) << route.id;
    EXPECT_LE(from, t.right() - 10) << route.id;
  }
}

TEST(OrthogonalRoutes, RunsAcrossOneGapNeverShareALine) {
  // Four edges from two sources to two targets across one gap: every vertical run (TB: the
  // horizontal run between the corners) lies on a line of its own.
  LayoutRequest request;
  request.nodes = {node("a"), node("b"), node("c"), node("d")};
  request.edges = {edge("a", "c"), edge("a", "d"), edge("b", "c"), edge("b", "d")};
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  std::vector<double> lines;
  for (const EdgeRoute& route : result->edges) {
    if (route.waypoints.size() == 2) lines.push_back(route.waypoints[0].y);
  }
  ASSERT_GE(lines.size(), 2u);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(std::adjacent_find(lines.begin(), lines.end()), lines.end());
}

TEST(OrthogonalRoutes, LongEdgesPassIntermediateRowsBetweenNodes) {
  LayoutRequest request;
  for (const char* id : {"top", "m1", "m2", "m3", "n1", "n2", "n3", "bottom"}) {
    request.nodes.push_back(node(id));
  }
  request.edges = {edge("top", "m1"),    edge("top", "m2"),    edge("top", "m3"),
                   edge("m1", "n1"),     edge("m2", "n2"),     edge("m3", "n3"),
                   edge("n1", "bottom"), edge("n3", "bottom"), edge("top", "bottom")};
  for (Direction direction : {Direction::TB, Direction::LR}) {
    request.direction = direction;
    auto result = run_layout(request);
    ASSERT_TRUE(result);
    const LayoutEdge& long_edge = request.edges.back();
    const std::vector<Point2> path = path_of(request, *result, long_edge);
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      EXPECT_TRUE(axis_aligned(path[i], path[i + 1]));
      for (const char* other : {"m1", "m2", "m3", "n1", "n2", "n3"}) {
        EXPECT_FALSE(crosses(path[i], path[i + 1], box_of(request, *result, other))) << other;
      }
    }
  }
}

// Two rows (y 0–40 and 200–240) with one node each, routed by the orthogonal router alone.
detail::Drawing two_rows(std::optional<detail::Box> cluster) {
  detail::Drawing drawing;
  drawing.nodes = {{0, 0, 100, 40}, {300, 200, 100, 40}};
  drawing.rows = {{0, 40, {0}}, {200, 240, {1}}};
  drawing.node_row = {0, 1};
  drawing.moved = {false, false};
  drawing.crossings.resize(1);
  drawing.curves.resize(1);
  drawing.clusters = {cluster};
  return drawing;
}

TEST(OrthogonalRoutes, TurnBetweenRowsOutsideClustersTheEdgeDoesNotBelongTo) {
  detail::IndexedGraph graph;
  graph.edges = {{0, 1}};
  auto route = [&](std::optional<detail::Box> cluster) {
    detail::Drawing drawing = two_rows(cluster);
    return detail::route_edges(drawing, graph, EdgeRouting::orthogonal, 60)[0].waypoints;
  };
  auto at = [](const std::vector<Point2>& points, size_t i) {
    return i < points.size() ? points[i] : Point2{-1, -1};
  };
  const auto plain = route(std::nullopt);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_DOUBLE_EQ(at(plain, 0).x, 50);
  EXPECT_DOUBLE_EQ(at(plain, 0).y, 120);  // halfway between the rows
  EXPECT_DOUBLE_EQ(at(plain, 1).x, 350);
  EXPECT_DOUBLE_EQ(at(plain, 1).y, 120);
  // The target's cluster starts at y 100: the route turns above it, in the middle of 40–100.
  const auto around = route(detail::Box{250, 100, 300, 200});
  ASSERT_EQ(around.size(), 2u);
  EXPECT_DOUBLE_EQ(at(around, 0).y, 70);
  EXPECT_DOUBLE_EQ(at(around, 1).y, 70);
  // A cluster holding both ends is the edge's own: the route keeps the middle of the gap.
  const auto inside = route(detail::Box{-20, -40, 500, 300});
  ASSERT_EQ(inside.size(), 2u);
  EXPECT_DOUBLE_EQ(at(inside, 0).y, 120);
}

// Three rows (y 0–40, 200–240, 400–440), routed by the orthogonal router alone: `a` in the top
// row, `m` in the middle one, `b` in the bottom one, and one edge a -> b crossing the middle row
// at `cross` (where Graphviz put its virtual node).
detail::Drawing three_rows(detail::Box a, detail::Box m, detail::Box b, double cross) {
  detail::Drawing drawing;
  drawing.nodes = {a, m, b};
  drawing.rows = {{0, 40, {0}}, {200, 240, {1}}, {400, 440, {2}}};
  drawing.node_row = {0, 1, 2};
  drawing.moved = {false, false, false};
  drawing.crossings = {{{1, cross}}};
  drawing.curves.resize(1);
  drawing.clusters = {};
  return drawing;
}

std::string describe(const std::vector<Point2>& path) {
  std::string out;
  for (const Point2& p : path)
    out += "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") ";
  return out;
}

// The route a -> b of `drawing`: source port, corners, target port.
std::vector<Point2> routed_path(const detail::Drawing& drawing) {
  detail::IndexedGraph graph;
  graph.edges = {{0, 2}};
  const EdgeRoute route = detail::route_edges(drawing, graph, EdgeRouting::orthogonal, 60)[0];
  const auto port = [](const detail::Box& box, const std::optional<Point2>& at, bool top) {
    return at ? Point2{box.x + at->x * box.w, box.y + at->y * box.h}
              : Point2{box.cx(), top ? box.y : box.bottom()};
  };
  std::vector<Point2> path{port(drawing.nodes[0], route.exit, false)};
  path.insert(path.end(), route.waypoints.begin(), route.waypoints.end());
  path.push_back(port(drawing.nodes[2], route.entry, true));
  return path;
}

// Issue 13 (judge 11, item 4): a route that runs out past the far ends of both runs beside one of
// its runs (a dip: judge 11 saw Payments -> Kafka go 517 -> 590 -> 560, its stop in the last
// Services row 30 px below Kafka's port) takes the line of the nearer one instead where that is
// clear: 2 bends fewer. Here the middle row's stop for a -> b lay at x 400, past m.
TEST(OrthogonalRoutes, ADipPastBothEndsGoesWhereTheLineIsClear) {
  // a (port 50) and b (port 80) lie left of m; the route crossed the middle row at x 400, past m.
  const std::vector<Point2> path =
      routed_path(three_rows({0, 0, 100, 40}, {200, 200, 100, 40}, {30, 400, 100, 40}, 400));
  ASSERT_GE(path.size(), 2U);
  double furthest = 0;
  for (const Point2& p : path)
    furthest = std::max(furthest, p.x);
  EXPECT_LE(furthest, 130) << "the route still runs out to x " << furthest;
  EXPECT_LE(path.size(), 4U) << describe(path);
}

TEST(SplineRoutes, LayeredEdgesGetSampledBendsAndStraightOnesNone) {
  LayoutRequest request;
  request.nodes = {node("a"), node("b"), node("c"), node("d")};
  request.edges = {edge("a", "b"), edge("a", "c"), edge("a", "d"), edge("b", "d")};
  request.routing = EdgeRouting::spline;
  auto curved = run_layout(request);
  ASSERT_TRUE(curved);
  size_t bends = 0;
  for (const EdgeRoute& route : curved->edges) {
    bends += route.waypoints.size();
    EXPECT_LE(route.waypoints.size(), 8u);
  }
  EXPECT_GT(bends, 0u);
  request.routing = EdgeRouting::straight;
  auto straight = run_layout(request);
  ASSERT_TRUE(straight);
  for (const EdgeRoute& route : straight->edges)
    EXPECT_TRUE(route.waypoints.empty());
}

TEST(SplineRoutes, TreeEdgesCurveBetweenParentAndChild) {
  LayoutRequest request;
  request.algorithm = Algorithm::tree;
  request.routing = EdgeRouting::spline;
  request.nodes = {node("p"), node("l"), node("r")};
  request.edges = {edge("p", "l"), edge("p", "r")};
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  const Rect p = box_of(request, *result, "p"), l = box_of(request, *result, "l");
  const auto& points = waypoints_of(*result, "p->l");
  ASSERT_EQ(points.size(), 3u);
  for (const Point2& point : points) {
    EXPECT_GT(point.y, p.cy());
    EXPECT_LT(point.y, l.cy());
    EXPECT_LT(point.x, p.cx());
    EXPECT_GT(point.x, l.cx());
  }
}

}  // namespace
}  // namespace fcp::drawio::layout
