// Builders and geometric checks shared by the layout tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "domains/drawio/layout/graph_layout.hpp"

namespace fcp::drawio::layout::test_support {

inline LayoutNode node(std::string id, double width = 120, double height = 40,
                       std::string cluster = {}) {
  LayoutNode n;
  n.id = std::move(id);
  n.width = width;
  n.height = height;
  n.cluster = std::move(cluster);
  return n;
}

inline LayoutNode pinned_node(std::string id, double x, double y) {
  LayoutNode n = node(std::move(id));
  n.x = x;
  n.y = y;
  n.pinned = true;
  return n;
}

inline LayoutEdge edge(std::string source, std::string target) {
  LayoutEdge e;
  e.id = source + "->" + target;
  e.source = std::move(source);
  e.target = std::move(target);
  return e;
}

inline LayoutCluster cluster(std::string id, std::string parent = {}, std::string label = {}) {
  LayoutCluster c;
  c.id = std::move(id);
  c.parent = std::move(parent);
  c.label = std::move(label);
  return c;
}

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double cx() const { return x + w / 2; }
  double cy() const { return y + h / 2; }
  double right() const { return x + w; }
  double bottom() const { return y + h; }
};

// The laid-out box of node `id`.
inline Rect box_of(const LayoutRequest& request, const LayoutResult& result,
                   const std::string& id) {
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    if (request.nodes[i].id == id) {
      return Rect{result.nodes[i].x, result.nodes[i].y, request.nodes[i].width,
                  request.nodes[i].height};
    }
  }
  ADD_FAILURE() << "no node " << id;
  return {};
}

inline Rect centre_of(const Rect& r) {
  return Rect{r.cx(), r.cy(), 0, 0};
}

inline Rect cluster_box(const LayoutResult& result, const std::string& id) {
  for (const ClusterBox& box : result.clusters) {
    if (box.id == id) return Rect{box.x, box.y, box.width, box.height};
  }
  ADD_FAILURE() << "no cluster " << id;
  return {};
}

inline const std::vector<Point2>& waypoints_of(const LayoutResult& result, const std::string& id) {
  for (const EdgeRoute& route : result.edges) {
    if (route.id == id) return route.waypoints;
  }
  ADD_FAILURE() << "no edge " << id;
  static const std::vector<Point2> none;
  return none;
}

inline bool contains(const Rect& outer, const Rect& inner) {
  return inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 &&
         inner.right() <= outer.right() + 1e-6 && inner.bottom() <= outer.bottom() + 1e-6;
}

// The larger of the horizontal and vertical gaps between two boxes (negative if they overlap).
inline double gap_between(const Rect& a, const Rect& b) {
  const double gap_x = std::max(b.x - a.right(), a.x - b.right());
  const double gap_y = std::max(b.y - a.bottom(), a.y - b.bottom());
  return std::max(gap_x, gap_y);
}

// The smallest gap between any two nodes of the result.
inline double smallest_gap(const LayoutRequest& request, const LayoutResult& result) {
  std::vector<Rect> boxes;
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    boxes.push_back(Rect{result.nodes[i].x, result.nodes[i].y, request.nodes[i].width,
                         request.nodes[i].height});
  }
  double smallest = 1e18;
  for (size_t i = 0; i < boxes.size(); ++i) {
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      smallest = std::min(smallest, gap_between(boxes[i], boxes[j]));
    }
  }
  return smallest;
}

// Distance along `direction` from the far side of `a` to the near side of `b` (positive when b
// comes after a in that direction).
inline double advance(Direction direction, const Rect& a, const Rect& b) {
  switch (direction) {
    case Direction::TB:
      return b.y - a.bottom();
    case Direction::BT:
      return a.y - b.bottom();
    case Direction::LR:
      return b.x - a.right();
    case Direction::RL:
      return a.x - b.right();
  }
  return 0;
}

inline std::string algorithm_and_direction_name(
    const ::testing::TestParamInfo<std::tuple<Algorithm, Direction>>& param) {
  return std::string(algorithm_name(std::get<0>(param.param))) +
         std::string(direction_name(std::get<1>(param.param)));
}

}  // namespace fcp::drawio::layout::test_support
