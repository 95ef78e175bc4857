#include "domains/drawio/layout/tree_placement.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace fcp::drawio::layout::detail {
namespace {

// Per depth below a subtree's root (index 0 = the root's own row): the leftmost and rightmost
// extent across the rank axis, relative to the root's centre.
using Contour = std::vector<std::pair<double, double>>;

struct Forest {
  std::vector<int> parent;
  std::vector<std::vector<int>> children;
  std::vector<int> roots;
  std::vector<int> top_down;  // every node after its parent (breadth first)
  std::vector<int> depth;
};

std::optional<Forest> forest_of(size_t count, const IndexedGraph& graph) {
  Forest forest;
  forest.parent.assign(count, -1);
  forest.children.assign(count, {});
  for (const IndexedGraph::Edge& edge : graph.edges) {
    if (edge.source == edge.target) continue;
    int& parent = forest.parent[static_cast<size_t>(edge.target)];
    if (parent == edge.source) continue;
    if (parent >= 0) return std::nullopt;
    parent = edge.source;
    forest.children[static_cast<size_t>(edge.source)].push_back(edge.target);
  }
  forest.depth.assign(count, 0);
  for (size_t i = 0; i < count; ++i) {
    if (forest.parent[i] < 0) forest.roots.push_back(static_cast<int>(i));
  }
  forest.top_down = forest.roots;
  for (size_t next = 0; next < forest.top_down.size(); ++next) {
    const int node = forest.top_down[next];
    for (int child : forest.children[static_cast<size_t>(node)]) {
      forest.depth[static_cast<size_t>(child)] = forest.depth[static_cast<size_t>(node)] + 1;
      forest.top_down.push_back(child);
    }
  }
  if (forest.top_down.size() != count) return std::nullopt;  // nodes on a cycle are unreachable
  return forest;
}

// Places `subtrees` side by side, each as far left as `spacing` to the ones before allows at
// every depth; returns their offsets and leaves the merged contour in `merged`.
std::vector<double> pack(const std::vector<int>& subtrees, std::vector<Contour>& contours,
                         double spacing, Contour& merged) {
  std::vector<double> offsets;
  for (int subtree : subtrees) {
    Contour& contour = contours[static_cast<size_t>(subtree)];
    double offset = 0;
    if (!offsets.empty()) {
      offset = std::numeric_limits<double>::lowest();
      for (size_t d = 0; d < std::min(merged.size(), contour.size()); ++d) {
        offset = std::max(offset, merged[d].second + spacing - contour[d].first);
      }
    }
    offsets.push_back(offset);
    for (size_t d = 0; d < contour.size(); ++d) {
      const std::pair<double, double> shifted{contour[d].first + offset,
                                              contour[d].second + offset};
      if (d < merged.size()) {
        merged[d].first = std::min(merged[d].first, shifted.first);
        merged[d].second = std::max(merged[d].second, shifted.second);
      } else {
        merged.push_back(shifted);
      }
    }
    Contour().swap(contour);
  }
  return offsets;
}

}  // namespace

std::optional<Drawing> place_tree(const LayoutRequest& request, const IndexedGraph& graph) {
  const size_t count = request.nodes.size();
  std::optional<Forest> forest = forest_of(count, graph);
  if (!forest) return std::nullopt;
  const bool vertical = request.direction == Direction::TB || request.direction == Direction::BT;
  auto across = [&](size_t i) {
    return vertical ? request.nodes[i].width : request.nodes[i].height;
  };
  auto along = [&](size_t i) {
    return vertical ? request.nodes[i].height : request.nodes[i].width;
  };

  // Bottom-up: each node's offset from its parent's centre, and its subtree's contour.
  std::vector<double> offset(count, 0);
  std::vector<Contour> contours(count);
  for (auto it = forest->top_down.rbegin(); it != forest->top_down.rend(); ++it) {
    const auto node = static_cast<size_t>(*it);
    const std::vector<int>& children = forest->children[node];
    Contour below;
    if (!children.empty()) {
      std::vector<double> placed = pack(children, contours, request.spacing, below);
      const double centre = (placed.front() + placed.back()) / 2;
      for (size_t c = 0; c < children.size(); ++c) {
        offset[static_cast<size_t>(children[c])] = placed[c] - centre;
      }
      for (auto& [left, right] : below) {
        left -= centre;
        right -= centre;
      }
    }
    Contour& contour = contours[node];
    contour.reserve(below.size() + 1);
    contour.emplace_back(-across(node) / 2, across(node) / 2);
    contour.insert(contour.end(), below.begin(), below.end());
  }
  Contour all;
  const std::vector<double> root_offsets = pack(forest->roots, contours, request.spacing, all);
  for (size_t r = 0; r < forest->roots.size(); ++r) {
    offset[static_cast<size_t>(forest->roots[r])] = root_offsets[r];
  }

  // Rows: each depth as thick as its thickest node, `spacing` apart.
  std::vector<double> row_start;
  std::vector<double> thickness;
  for (size_t i = 0; i < count; ++i) {
    const auto d = static_cast<size_t>(forest->depth[i]);
    if (d >= thickness.size()) thickness.resize(d + 1, 0);
    thickness[d] = std::max(thickness[d], along(i));
  }
  double start = 0;
  for (double thick : thickness) {
    row_start.push_back(start);
    start += thick + request.spacing;
  }

  Drawing drawing;
  drawing.vertical_ranks = vertical;
  drawing.nodes.resize(count);
  std::vector<double> cross(count, 0);
  for (int node : forest->top_down) {
    const auto i = static_cast<size_t>(node);
    const int parent = forest->parent[i];
    cross[i] = offset[i] + (parent < 0 ? 0 : cross[static_cast<size_t>(parent)]);
    const auto d = static_cast<size_t>(forest->depth[i]);
    double rank = row_start[d] + thickness[d] / 2;
    if (request.direction == Direction::BT || request.direction == Direction::RL) rank = -rank;
    const double cx = vertical ? cross[i] : rank, cy = vertical ? rank : cross[i];
    const LayoutNode& n = request.nodes[i];
    drawing.nodes[i] = Box{cx - n.width / 2, cy - n.height / 2, n.width, n.height};
  }
  drawing.moved.assign(count, false);
  drawing.clusters.resize(request.clusters.size());
  drawing.crossings.resize(graph.edges.size());
  drawing.curves.resize(graph.edges.size());
  build_rows(drawing, forest->depth);
  return drawing;
}

}  // namespace fcp::drawio::layout::detail
