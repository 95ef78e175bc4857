#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "domains/drawio/layout/graph_layout.hpp"
#include "domains/drawio/layout/graphviz_engine.hpp"
#include "layout_test_support.hpp"

namespace fcp::drawio::layout {
namespace {

using namespace test_support;  // NOLINT(google-build-using-namespace): test builders
using ::testing::HasSubstr;

// a → b → d, a → c → e, c → f: a forest, so `tree` uses its own placement.
LayoutRequest small_tree(Algorithm algorithm, Direction direction) {
  LayoutRequest request;
  request.algorithm = algorithm;
  request.direction = direction;
  request.nodes = {node("a"), node("b", 80, 60),  node("c"),
                   node("d"), node("e", 160, 30), node("f")};
  request.edges = {edge("a", "b"), edge("a", "c"), edge("b", "d"), edge("c", "e"), edge("c", "f")};
  return request;
}

// Nodes a0 … a{n-1} with edges from each to a few later ones: a DAG, not a forest.
LayoutRequest dag(int count) {
  LayoutRequest request;
  for (int i = 0; i < count; ++i) {
    request.nodes.push_back(node("a" + std::to_string(i), 60 + 13 * (i % 5), 30 + 7 * (i % 3)));
  }
  for (int i = 1; i < count; ++i) {
    request.edges.push_back(edge("a" + std::to_string((i * 7 + 3) % i), "a" + std::to_string(i)));
    if (i % 3 == 0)
      request.edges.push_back(edge("a" + std::to_string(i / 3), "a" + std::to_string(i)));
  }
  return request;
}

class EveryAlgorithmAndDirection
    : public ::testing::TestWithParam<std::tuple<Algorithm, Direction>> {};

TEST_P(EveryAlgorithmAndDirection, EdgesRunAlongTheDirection) {
  const auto [algorithm, direction] = GetParam();
  const LayoutRequest request = small_tree(algorithm, direction);
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  if (algorithm == Algorithm::force) {
    // No ranks: the drawing is turned so that edges point the requested way on average.
    double along = 0;
    for (const LayoutEdge& e : request.edges) {
      along += advance(direction, centre_of(box_of(request, *result, e.source)),
                       centre_of(box_of(request, *result, e.target)));
    }
    EXPECT_GT(along, 0);
    return;
  }
  for (const LayoutEdge& e : request.edges) {
    EXPECT_GE(
        advance(direction, box_of(request, *result, e.source), box_of(request, *result, e.target)),
        request.spacing * 0.9)
        << e.id;
  }
}

INSTANTIATE_TEST_SUITE_P(Layout, EveryAlgorithmAndDirection,
                         ::testing::Combine(::testing::Values(Algorithm::layered, Algorithm::tree,
                                                              Algorithm::force),
                                            ::testing::Values(Direction::TB, Direction::LR,
                                                              Direction::BT, Direction::RL)),
                         algorithm_and_direction_name);

class EveryAlgorithm : public ::testing::TestWithParam<Algorithm> {};

TEST_P(EveryAlgorithm, KeepsSpacingBetweenAllNodes) {
  for (double spacing : {30.0, 60.0, 110.0}) {
    LayoutRequest request = dag(40);
    request.algorithm = GetParam();
    request.spacing = spacing;
    auto result = run_layout(request);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_GE(smallest_gap(request, *result), spacing * 0.9) << "spacing " << spacing;
  }
}

TEST_P(EveryAlgorithm, KeepsPinnedNodesExactly) {
  LayoutRequest request = dag(25);
  request.algorithm = GetParam();
  request.nodes[0] = pinned_node("a0", 512.25, -37.5);
  request.nodes[7] = pinned_node("a7", -300, 410.75);  // wherever the layout would put it
  request.nodes[12] = pinned_node("a12", 530, 0);      // overlapping a0 a little
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->nodes[0].x, 512.25);
  EXPECT_EQ(result->nodes[0].y, -37.5);
  EXPECT_EQ(result->nodes[7].x, -300);
  EXPECT_EQ(result->nodes[7].y, 410.75);
  EXPECT_EQ(result->nodes[12].x, 530);
  EXPECT_EQ(result->nodes[12].y, 0);
  // Every unpinned node keeps clear of every other node.
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    for (size_t j = 0; j < request.nodes.size(); ++j) {
      if (i == j || request.nodes[i].pinned) continue;
      EXPECT_GE(gap_between(box_of(request, *result, request.nodes[i].id),
                            box_of(request, *result, request.nodes[j].id)),
                request.spacing * 0.9)
          << request.nodes[i].id << " vs " << request.nodes[j].id;
    }
  }
}

TEST_P(EveryAlgorithm, PinnedLayoutMovesRestWithThePins) {
  // Pin two nodes where an unpinned layout put them, shifted: the rest follows the shift.
  LayoutRequest request = dag(12);
  request.algorithm = GetParam();
  auto free_layout = run_layout(request);
  ASSERT_TRUE(free_layout);
  for (int i : {0, 5}) {
    request.nodes[static_cast<size_t>(i)].x = free_layout->nodes[static_cast<size_t>(i)].x + 1000;
    request.nodes[static_cast<size_t>(i)].y = free_layout->nodes[static_cast<size_t>(i)].y + 500;
    request.nodes[static_cast<size_t>(i)].pinned = true;
  }
  auto pinned = run_layout(request);
  ASSERT_TRUE(pinned) << pinned.error().message;
  if (GetParam() == Algorithm::force) {
    // fdp may settle differently around pins, but not far from them.
    EXPECT_EQ(pinned->nodes[5].x, request.nodes[5].x);
    EXPECT_EQ(pinned->nodes[5].y, request.nodes[5].y);
    return;
  }
  // A free layered drawing with orthogonal routes puts its shapes on whole px (as a saved file
  // keeps them, so that straight routes stay straight); the pinned one keeps the pins' offset
  // from Graphviz's places: within a px.
  const double within = GetParam() == Algorithm::layered ? 1.0 : 1e-6;
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    EXPECT_NEAR(pinned->nodes[i].x, free_layout->nodes[i].x + 1000, within) << i;
    EXPECT_NEAR(pinned->nodes[i].y, free_layout->nodes[i].y + 500, within) << i;
  }
}

TEST_P(EveryAlgorithm, ClustersContainTheirNodesAndChildClusters) {
  LayoutRequest request;
  request.algorithm = GetParam();
  request.clusters = {cluster("outer", "", "Outer"), cluster("inner", "outer", "Inner"),
                      cluster("side"), cluster("empty", "outer")};
  request.nodes = {node("a", 120, 40, "outer"),
                   node("b", 120, 40, "inner"),
                   node("c", 100, 60, "inner"),
                   node("d", 120, 40, "side"),
                   node("e"),
                   node("f", 120, 40, "side")};
  request.edges = {edge("a", "b"), edge("b", "c"), edge("a", "d"), edge("e", "a"), edge("d", "f")};
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  const Rect outer = cluster_box(*result, "outer"), inner = cluster_box(*result, "inner");
  const Rect side = cluster_box(*result, "side"), empty = cluster_box(*result, "empty");
  EXPECT_TRUE(contains(outer, inner));
  EXPECT_TRUE(contains(outer, empty));
  EXPECT_GT(empty.w, 0);
  for (const char* id : {"a", "b", "c"})
    EXPECT_TRUE(contains(outer, box_of(request, *result, id))) << id;
  for (const char* id : {"b", "c"})
    EXPECT_TRUE(contains(inner, box_of(request, *result, id))) << id;
  for (const char* id : {"d", "f"})
    EXPECT_TRUE(contains(side, box_of(request, *result, id))) << id;
  // A labelled cluster keeps its header band above its contents.
  EXPECT_LE(outer.y + request.cluster_header, inner.y);
  EXPECT_LE(inner.y + request.cluster_header, box_of(request, *result, "b").y);
  if (GetParam() != Algorithm::force) {
    for (const char* id : {"d", "e", "f"}) {
      const Rect r = box_of(request, *result, id);
      EXPECT_GT(gap_between(outer, r), 0) << id << " is outside outer";
    }
  }
}

TEST_P(EveryAlgorithm, PinnedNodeInClusterStretchesIt) {
  LayoutRequest request;
  request.algorithm = GetParam();
  request.clusters = {cluster("g", "", "Group")};
  request.nodes = {node("a", 120, 40, "g"), node("b", 120, 40, "g"), node("c")};
  request.nodes[1].x = 900;
  request.nodes[1].y = 700;
  request.nodes[1].pinned = true;
  request.edges = {edge("a", "b"), edge("b", "c")};
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->nodes[1].x, 900);
  EXPECT_EQ(result->nodes[1].y, 700);
  const Rect group = cluster_box(*result, "g");
  EXPECT_TRUE(contains(group, box_of(request, *result, "a")));
  EXPECT_TRUE(contains(group, box_of(request, *result, "b")));
}

TEST_P(EveryAlgorithm, EmptyGraphAndSingleNode) {
  LayoutRequest empty;
  empty.algorithm = GetParam();
  auto none = run_layout(empty);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->nodes.empty());
  EXPECT_TRUE(none->clusters.empty());
  EXPECT_TRUE(none->edges.empty());

  LayoutRequest single = empty;
  single.nodes = {node("only")};
  single.edges = {edge("only", "only")};
  auto one = run_layout(single);
  ASSERT_TRUE(one) << one.error().message;
  ASSERT_EQ(one->nodes.size(), 1u);
  EXPECT_EQ(one->nodes[0].id, "only");
  EXPECT_DOUBLE_EQ(one->nodes[0].x, single.origin_x);
  EXPECT_DOUBLE_EQ(one->nodes[0].y, single.origin_y);
  ASSERT_EQ(one->edges.size(), 1u);
  EXPECT_TRUE(one->edges[0].waypoints.empty());  // self-loops are drawn by the editor
}

TEST_P(EveryAlgorithm, DrawingStartsAtTheOrigin) {
  LayoutRequest request = dag(15);
  request.algorithm = GetParam();
  request.origin_x = 123;
  request.origin_y = -7;
  request.routing = EdgeRouting::straight;
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  double left = 1e18, top = 1e18;
  for (const NodePlacement& placement : result->nodes) {
    left = std::min(left, placement.x);
    top = std::min(top, placement.y);
  }
  EXPECT_NEAR(left, 123, 1e-6);
  EXPECT_NEAR(top, -7, 1e-6);
}

TEST_P(EveryAlgorithm, WritesNothingToStdoutOrStderr) {
  LayoutRequest request = dag(30);
  request.algorithm = GetParam();
  // Invalid UTF-8 and label escapes make Graphviz warn; the warnings must not reach stderr.
  request.clusters = {cluster("g", "", "bad \xff\xfe utf-8 \\N \\G")};
  request.nodes[3].cluster = "g";
  request.nodes[4].cluster = "g";
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  auto result = run_layout(request);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(result) << result.error().message;
}

TEST_P(EveryAlgorithm, IsDeterministic) {
  LayoutRequest request = dag(30);
  request.algorithm = GetParam();
  if (GetParam() != Algorithm::force) {
    // fdp (force with clusters) orders its graph by pointer comparisons and may vary.
    request.clusters = {cluster("g", "", "Group")};
    request.nodes[3].cluster = "g";
    request.nodes[4].cluster = "g";
  }
  auto first = run_layout(request);
  for (int round = 0; round < 3; ++round) {
    auto again = run_layout(request);
    ASSERT_TRUE(first && again);
    for (size_t i = 0; i < request.nodes.size(); ++i) {
      EXPECT_EQ(first->nodes[i].x, again->nodes[i].x);
      EXPECT_EQ(first->nodes[i].y, again->nodes[i].y);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layout, EveryAlgorithm,
                         ::testing::Values(Algorithm::layered, Algorithm::tree, Algorithm::force),
                         [](const auto& param) {
                           return std::string(algorithm_name(param.param));
                         });

TEST_P(EveryAlgorithm, SeparatesNodesWithoutEdges) {
  LayoutRequest request;
  request.algorithm = GetParam();
  for (int i = 0; i < 12; ++i)
    request.nodes.push_back(node("n" + std::to_string(i), 50 + 10 * i));
  request.edges = {edge("n3", "n4")};
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_GE(smallest_gap(request, *result), request.spacing * 0.9);
}

TEST(TreeLayout, CentresParentsOverTheirChildrenInOrder) {
  for (Direction direction : {Direction::TB, Direction::LR, Direction::BT, Direction::RL}) {
    LayoutRequest request = small_tree(Algorithm::tree, direction);
    auto result = run_layout(request);
    ASSERT_TRUE(result);
    const bool vertical = direction == Direction::TB || direction == Direction::BT;
    auto across = [&](const char* id) {
      const Rect r = box_of(request, *result, id);
      return vertical ? r.cx() : r.cy();
    };
    EXPECT_DOUBLE_EQ(across("a"), (across("b") + across("c")) / 2) << direction_name(direction);
    EXPECT_DOUBLE_EQ(across("c"), (across("e") + across("f")) / 2) << direction_name(direction);
    EXPECT_DOUBLE_EQ(across("b"), across("d"));
    EXPECT_LT(across("b"), across("c"));  // children keep the order of their edges
    EXPECT_LT(across("e"), across("f"));
    // One row per depth: b and c share their centre on the rank axis.
    const Rect b = box_of(request, *result, "b"), c = box_of(request, *result, "c");
    EXPECT_DOUBLE_EQ(vertical ? b.cy() : b.cx(), vertical ? c.cy() : c.cx());
  }
}

TEST(TreeLayout, PacksSubtreesByTheirContours) {
  // A deep left subtree and a shallow right one sit closer than their full widths would allow.
  LayoutRequest request;
  request.algorithm = Algorithm::tree;
  request.nodes = {node("r"),  node("l"), node("l1"), node("l2"),
                   node("l3"), node("x"), node("x1"), node("x2")};
  request.edges = {edge("r", "l"), edge("l", "l1"), edge("l", "l2"), edge("l", "l3"),
                   edge("r", "x"), edge("x", "x1"), edge("x", "x2")};
  auto result = run_layout(request);
  ASSERT_TRUE(result);
  EXPECT_GE(smallest_gap(request, *result), request.spacing - 1e-6);
  const Rect l3 = box_of(request, *result, "l3"), x1 = box_of(request, *result, "x1");
  EXPECT_NEAR(x1.x - l3.right(), request.spacing, 1e-6);  // neighbouring subtrees touch
}

TEST(TreeLayout, FallsBackToLayeredWhenNotAForest) {
  LayoutRequest request;
  request.algorithm = Algorithm::tree;
  request.nodes = {node("a"), node("b"), node("c"), node("d")};
  request.edges = {edge("a", "b"), edge("a", "c"), edge("b", "d"), edge("c", "d"), edge("d", "a")};
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_GE(advance(Direction::TB, box_of(request, *result, "a"), box_of(request, *result, "b")),
            request.spacing * 0.9);
  EXPECT_GE(smallest_gap(request, *result), request.spacing * 0.9);
}

// Issue 13: with shapes pinned, the free shapes are ordered near the pinned shapes they connect
// to where those stay, not where the free layout would have put them. Two tiers, p and q feeding
// x and y; p and q pinned the other way round from the free layout: x and y swap with them (the
// layout moved everything with the pins and left the two edges crossing).
TEST(LayoutTiers, FreeShapesAreOrderedNearThePinnedShapesTheyConnectTo) {
  using namespace test_support;  // NOLINT(google-build-using-namespace): the test's helpers
  LayoutRequest request;
  request.direction = Direction::LR;
  request.clusters = {cluster("T1"), cluster("T2")};
  request.nodes = {node("p", 120, 40, "T1"), node("q", 120, 40, "T1"), node("x", 120, 40, "T2"),
                   node("y", 120, 40, "T2")};
  request.edges = {edge("p", "x"), edge("q", "y")};
  auto free_layout = run_layout(request);
  ASSERT_TRUE(free_layout) << free_layout.error().message;
  const Rect p = box_of(request, *free_layout, "p"), q = box_of(request, *free_layout, "q");
  const Rect x = box_of(request, *free_layout, "x"), y = box_of(request, *free_layout, "y");
  ASSERT_NE(p.cy() < q.cy(), q.cy() < p.cy());
  EXPECT_EQ(p.cy() < q.cy(), x.cy() < y.cy());  // dot: each feeds the one beside it
  request.nodes[0].x = p.x;                     // p where q was, q where p was
  request.nodes[0].y = q.y;
  request.nodes[0].pinned = true;
  request.nodes[1].x = q.x;
  request.nodes[1].y = p.y;
  request.nodes[1].pinned = true;
  auto pinned = run_layout(request);
  ASSERT_TRUE(pinned) << pinned.error().message;
  const Rect pinned_x = box_of(request, *pinned, "x"), pinned_y = box_of(request, *pinned, "y");
  EXPECT_EQ(box_of(request, *pinned, "p").y, q.y);
  EXPECT_EQ(q.y < p.y, pinned_x.cy() < pinned_y.cy())
      << "x " << pinned_x.cy() << ", y " << pinned_y.cy();
}

TEST(LayoutErrors, ReportUnknownAndDuplicateIds) {
  auto message_of = [](const LayoutRequest& request) {
    auto result = run_layout(request);
    EXPECT_FALSE(result);
    return result ? std::string() : result.error().message;
  };
  LayoutRequest request;
  request.nodes = {node("a"), node("b")};
  request.edges = {edge("a", "zz")};
  EXPECT_THAT(message_of(request), HasSubstr("unknown target node \"zz\""));
  request.edges = {edge("yy", "a")};
  EXPECT_THAT(message_of(request), HasSubstr("unknown source node \"yy\""));
  request.edges = {};
  request.nodes.push_back(node("a"));
  EXPECT_THAT(message_of(request), HasSubstr("duplicate node id \"a\""));
  request.nodes = {node("a", 120, 40, "nowhere")};
  EXPECT_THAT(message_of(request), HasSubstr("unknown cluster \"nowhere\""));
  request.nodes = {node("a", 120, 40, "c1")};
  request.clusters = {cluster("c1", "c3"), cluster("c2", "c1"), cluster("c3", "c2")};
  EXPECT_THAT(message_of(request), HasSubstr("cycle"));
  request.clusters = {cluster("c1", "ghost")};
  EXPECT_THAT(message_of(request), HasSubstr("unknown parent \"ghost\""));
  request.clusters = {cluster("c1"), cluster("c1")};
  EXPECT_THAT(message_of(request), HasSubstr("duplicate cluster id \"c1\""));
}

TEST(LayoutEngine, UsesLinkedLayoutPluginsAndIsSafeAcrossThreads) {
  EXPECT_TRUE(detail::graphviz_plugins_builtin());
  LayoutRequest request = dag(60);
  auto expected = run_layout(request);
  ASSERT_TRUE(expected);
  std::vector<std::thread> threads;
  std::vector<int> matches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        auto result = run_layout(request);
        if (result && result->nodes[17].x == expected->nodes[17].x)
          ++matches[static_cast<size_t>(t)];
      }
    });
  }
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_THAT(matches, ::testing::Each(3));
}

TEST(LayoutEngine, HandlesAThousandNodes) {
  LayoutRequest request = dag(1000);
  auto result = run_layout(request);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_GE(smallest_gap(request, *result), request.spacing * 0.9);
}

TEST(LayoutParams, ParseNamesCaseInsensitively) {
  EXPECT_EQ(parse_algorithm("layered"), Algorithm::layered);
  EXPECT_EQ(parse_algorithm("DOT"), Algorithm::layered);
  EXPECT_EQ(parse_algorithm("Dagre"), Algorithm::layered);
  EXPECT_EQ(parse_algorithm("tree"), Algorithm::tree);
  EXPECT_EQ(parse_algorithm("Force"), Algorithm::force);
  EXPECT_EQ(parse_algorithm("neato"), Algorithm::force);
  EXPECT_EQ(parse_algorithm("FDP"), Algorithm::force);
  EXPECT_EQ(parse_algorithm("radial"), std::nullopt);
  EXPECT_EQ(parse_algorithm(""), std::nullopt);
  EXPECT_EQ(parse_direction("tb"), Direction::TB);
  EXPECT_EQ(parse_direction("LR"), Direction::LR);
  EXPECT_EQ(parse_direction("bT"), Direction::BT);
  EXPECT_EQ(parse_direction("rl"), Direction::RL);
  EXPECT_EQ(parse_direction("XX"), std::nullopt);
  EXPECT_EQ(parse_direction("TBX"), std::nullopt);
  EXPECT_EQ(parse_routing("orthogonal"), EdgeRouting::orthogonal);
  EXPECT_EQ(parse_routing("ORTHO"), EdgeRouting::orthogonal);
  EXPECT_EQ(parse_routing("spline"), EdgeRouting::spline);
  EXPECT_EQ(parse_routing("Curved"), EdgeRouting::spline);
  EXPECT_EQ(parse_routing("straight"), EdgeRouting::straight);
  EXPECT_EQ(parse_routing("polyline"), EdgeRouting::straight);
  EXPECT_EQ(parse_routing("wavy"), std::nullopt);
}

TEST(LayoutParams, NamesRoundTrip) {
  for (Algorithm algorithm : {Algorithm::layered, Algorithm::tree, Algorithm::force}) {
    EXPECT_EQ(parse_algorithm(algorithm_name(algorithm)), algorithm);
  }
  for (Direction direction : {Direction::TB, Direction::LR, Direction::BT, Direction::RL}) {
    EXPECT_EQ(parse_direction(direction_name(direction)), direction);
  }
  for (EdgeRouting routing :
       {EdgeRouting::orthogonal, EdgeRouting::spline, EdgeRouting::straight}) {
    EXPECT_EQ(parse_routing(routing_name(routing)), routing);
  }
}

// Session 19 (issue 13): a box that may grow (its caller's default size) whose side along the
// rank rows holds 6 or more ends, more than fit 15 px apart with as much at each corner, grows
// along that side to (ends + 1) * 15 px, rounded up to 10, and says for how many; one that may
// not keeps its size, and so does a side that holds its ends. Ranks top down: the side is the
// box's top, its width grows.
TEST(RoomForPorts, ABoxGrowsAlongASideTooShortForItsEnds) {
  for (const bool may_grow : {true, false}) {
    LayoutRequest request;
    request.direction = Direction::TB;
    request.nodes.push_back(node("hub", 100, 60));
    request.nodes.back().may_grow = may_grow;
    for (int i = 0; i < 7; ++i) {
      request.nodes.push_back(node("s" + std::to_string(i)));
      request.edges.push_back(edge("s" + std::to_string(i), "hub"));
    }
    request.nodes.push_back(node("out", 100, 60));
    request.nodes.back().may_grow = true;  // one end on its top: it keeps its size
    request.edges.push_back(edge("hub", "out"));
    auto result = run_layout(request);
    ASSERT_TRUE(result) << result.error().message;
    const NodePlacement& hub = result->nodes.front();
    EXPECT_DOUBLE_EQ(hub.width, may_grow ? 120 : 100);
    EXPECT_DOUBLE_EQ(hub.height, 60);
    EXPECT_EQ(hub.grown_for, may_grow ? 7U : 0U);
    EXPECT_DOUBLE_EQ(result->nodes.back().width, 100);
    EXPECT_EQ(result->nodes.back().grown_for, 0U);
  }
}

}  // namespace
}  // namespace fcp::drawio::layout
