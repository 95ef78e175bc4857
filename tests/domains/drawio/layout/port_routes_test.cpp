// route_between_ports: orthogonal routes from fixed ports round every box, the ends included.
#include "domains/drawio/layout/port_routes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace fcp::drawio::layout {
namespace {

// Whether the axis-aligned segment a–b enters the inside of `box`.
bool enters(Point2 a, Point2 b, const ClusterBox& box) {
  const double left = std::min(a.x, b.x), right = std::max(a.x, b.x);
  const double top = std::min(a.y, b.y), bottom = std::max(a.y, b.y);
  return left < box.x + box.width && right > box.x && top < box.y + box.height && bottom > box.y;
}

std::vector<Point2> full_path(Point2 exit, const std::vector<Point2>& bends, Point2 entry) {
  std::vector<Point2> path{exit};
  path.insert(path.end(), bends.begin(), bends.end());
  path.push_back(entry);
  return path;
}

TEST(PortRoutes, LeavesAndEntersThroughTheGivenSidesAndPassesNoBox) {
  // A's bottom to C's top, with B between them on the straight line.
  const PortEnd a{{"a", 0, 0, 100, 40}, {0.5, 1}};
  const PortEnd c{{"c", 300, 0, 100, 40}, {0.5, 0}};
  const std::vector<ClusterBox> others{{"b", 150, -50, 100, 140}};
  const auto bends = route_between_ports(a, c, others);
  ASSERT_TRUE(bends.has_value());
  const auto path = full_path({50, 40}, *bends, {350, 0});
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    EXPECT_TRUE(path[i].x == path[i + 1].x || path[i].y == path[i + 1].y) << "not orthogonal";
    for (const ClusterBox& box : {a.box, c.box, others[0]})
      EXPECT_FALSE(enters(path[i], path[i + 1], box)) << "segment " << i << " enters " << box.id;
  }
  // Straight down out of A, straight down into C.
  EXPECT_EQ(path[1].x, 50);
  EXPECT_GT(path[1].y, 40);
  EXPECT_EQ(path[path.size() - 2].x, 350);
  EXPECT_LT(path[path.size() - 2].y, 0);
}

TEST(PortRoutes, NoRouteWhenAPortIsCovered) {
  const PortEnd a{{"a", 0, 0, 100, 40}, {1, 0.5}};
  const PortEnd c{{"c", 300, 0, 100, 40}, {0, 0.5}};
  // A box sits right against A's right side.
  EXPECT_FALSE(route_between_ports(a, c, {{"x", 102, 0, 40, 40}}).has_value());
}

}  // namespace
}  // namespace fcp::drawio::layout
