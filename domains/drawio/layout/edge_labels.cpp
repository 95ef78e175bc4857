#include "domains/drawio/layout/edge_labels.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "domains/drawio/rect.hpp"

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kCell = 200;  // px: side of the grid cells that index route segments
constexpr double kTolerance = 0.5;
// Label places tried: the middle, then alternately after and before it in steps of 2.5 % of the
// route, out to 5 % from either end (a long route's middle runs where other edges run too: a
// hub's trunk lanes; its ends, where it fans out to its own shape, are often clear).
constexpr int kLabelSteps = 36;
constexpr double kLabelStep = 0.025;

struct Segment {
  Point2 a, b;
  size_t edge = 0;
};

// Route segments by the grid cells their bounding boxes touch.
class SegmentGrid {
 public:
  void add(const Segment& segment) {
    segments_.push_back(segment);
    visit(box_of(segment), [&](long long key) { cells_[key].push_back(segments_.size() - 1); });
  }
  // Edges other than `edge` with a segment through `box` (counted once per segment).
  int crossing(const Box& box, size_t edge) const {
    std::vector<size_t> seen;
    visit(box, [&](long long key) {
      const auto it = cells_.find(key);
      if (it == cells_.end()) return;
      for (size_t index : it->second) {
        const Segment& s = segments_[index];
        if (s.edge != edge && hits(s, box)) seen.push_back(index);
      }
    });
    std::sort(seen.begin(), seen.end());
    return static_cast<int>(std::unique(seen.begin(), seen.end()) - seen.begin());
  }

 private:
  static Box box_of(const Segment& s) {
    const double x = std::min(s.a.x, s.b.x), y = std::min(s.a.y, s.b.y);
    return Box{x, y, std::abs(s.a.x - s.b.x), std::abs(s.a.y - s.b.y)};
  }
  template <class Visit>
  static void visit(const Box& box, Visit&& fn) {
    const auto x0 = static_cast<long long>(std::floor(box.x / kCell));
    const auto x1 = static_cast<long long>(std::floor(box.right() / kCell));
    const auto y0 = static_cast<long long>(std::floor(box.y / kCell));
    const auto y1 = static_cast<long long>(std::floor(box.bottom() / kCell));
    for (long long x = x0; x <= x1; ++x) {
      for (long long y = y0; y <= y1; ++y)
        fn(x * 1000003LL + y);
    }
  }
  // Whether the segment passes through the open box: the part of it inside each slab
  // (Liang–Barsky), exact and independent of the segment's length.
  static bool hits(const Segment& s, const Box& box) {
    double enter = 0, leave = 1;
    // Keeps the t in [enter, leave] with step * t < room (the segment on the slab's inner side).
    const auto clip = [&](double step, double room) {
      if (step == 0) return room > 0;
      const double t = room / step;
      if (step < 0) {
        enter = std::max(enter, t);
      } else {
        leave = std::min(leave, t);
      }
      return enter <= leave;
    };
    const double dx = s.b.x - s.a.x, dy = s.b.y - s.a.y;
    if (!clip(-dx, s.a.x - box.x) || !clip(dx, box.right() - s.a.x) || !clip(-dy, s.a.y - box.y) ||
        !clip(dy, box.bottom() - s.a.y))
      return false;
    return enter < leave;
  }
  std::vector<Segment> segments_;
  std::unordered_map<long long, std::vector<size_t>> cells_;
};

// Label scores (lower is better): distance from the middle counts up to 0.45.
constexpr double kClearance = 8;     // px a label keeps from other edges' lines
constexpr double kCornerMargin = 4;  // px a label keeps from its own route's corners
constexpr double kThroughCost = 10;  // per other edge through the label
constexpr double kNearCost = 3;      // per other edge within kClearance of it
constexpr double kCornerCost = 2;    // per corner of its own route under it
constexpr double kBorderCost = 9;    // per group border it lies across (as by another edge)
// Issue 13 (judge 11): a label within kClearance of another edge's line reads as that edge's (an
// expert reviewer read "events" 5 px above a solid line as that line's), one within kClearance of
// a group's title as part of the title (its line as the title's underline), one within
// kClearance of a group's frame as part of the frame: each costs as much as a shape that is not
// the edge's end beside it, so a label slides along its route clear of them where it can.
constexpr double kLineNearCost = 6;   // per other edge within kClearance (none through it)
constexpr double kTitleNearCost = 6;  // per group title within kClearance
constexpr double kFrameNearCost = 3;  // per group frame within kClearance (across it: kBorderCost)
// A label closer than kShapeGap to a shape that is not an end of its edge reads as that shape's
// (the batch warnings' threshold, kLabelShapeGap, on the same estimated box).
constexpr double kShapeGap = 9;
constexpr double kShapeNearCost = 6;  // per such shape

Box grown(const Box& box, double margin) {
  return Box{box.x - margin, box.y - margin, box.w + 2 * margin, box.h + 2 * margin};
}

bool contains(const Box& box, Point2 p) {
  return p.x > box.x && p.x < box.right() && p.y > box.y && p.y < box.bottom();
}

// Whether a border of `cluster` runs through `box`.
bool straddles(const Box& box, const Box& cluster) {
  const bool across_x = box.y < cluster.bottom() && box.bottom() > cluster.y;
  const bool across_y = box.x < cluster.right() && box.right() > cluster.x;
  return (across_x && ((box.x < cluster.x && box.right() > cluster.x) ||
                       (box.x < cluster.right() && box.right() > cluster.right()))) ||
         (across_y && ((box.y < cluster.y && box.bottom() > cluster.y) ||
                       (box.y < cluster.bottom() && box.bottom() > cluster.bottom())));
}

bool overlap(const Box& a, const Box& b) {
  return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

Point2 along(const std::vector<Point2>& path, double fraction) {
  double total = 0;
  for (size_t i = 0; i + 1 < path.size(); ++i)
    total += std::hypot(path[i + 1].x - path[i].x, path[i + 1].y - path[i].y);
  double left = total * fraction;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const double length = std::hypot(path[i + 1].x - path[i].x, path[i + 1].y - path[i].y);
    if (left <= length && length > 0) {
      const double t = left / length;
      return Point2{path[i].x + t * (path[i + 1].x - path[i].x),
                    path[i].y + t * (path[i + 1].y - path[i].y)};
    }
    left -= length;
  }
  return path.back();
}

// Whether two axis-parallel segments lie along each other, kOneLineGap apart or less, for more
// than kOneLineLength.
bool one_line(Point2 a, Point2 b, Point2 c, Point2 d) {
  for (const bool horizontal : {true, false}) {
    auto along = [horizontal](Point2 p) { return horizontal ? p.x : p.y; };
    auto across = [horizontal](Point2 p) { return horizontal ? p.y : p.x; };
    if (std::abs(across(a) - across(b)) > 0.5 || std::abs(across(c) - across(d)) > 0.5) continue;
    if (std::abs(across(a) - across(c)) > kOneLineGap) continue;
    const double lo = std::max(std::min(along(a), along(b)), std::min(along(c), along(d)));
    const double hi = std::min(std::max(along(a), along(b)), std::max(along(c), along(d)));
    if (hi - lo > kOneLineLength) return true;
  }
  return false;
}

}  // namespace

Point2 end_point(const Box& box, const std::optional<Point2>& port, Point2 toward) {
  if (port) return Point2{box.x + port->x * box.w, box.y + port->y * box.h};
  const bool in_x = toward.x >= box.x - kTolerance && toward.x <= box.right() + kTolerance;
  const bool in_y = toward.y >= box.y - kTolerance && toward.y <= box.bottom() + kTolerance;
  if (in_x && !in_y) return Point2{toward.x, toward.y < box.cy() ? box.y : box.bottom()};
  if (in_y && !in_x) return Point2{toward.x < box.cx() ? box.x : box.right(), toward.y};
  return Point2{box.cx(), box.cy()};
}

std::vector<Point2> path_of(const Box& source, const Box& target, const EdgeRoute& route) {
  const Point2 first =
      route.waypoints.empty() ? Point2{target.cx(), target.cy()} : route.waypoints.front();
  const Point2 last =
      route.waypoints.empty() ? Point2{source.cx(), source.cy()} : route.waypoints.back();
  std::vector<Point2> path{end_point(source, route.exit, first)};
  path.insert(path.end(), route.waypoints.begin(), route.waypoints.end());
  path.push_back(end_point(target, route.entry, last));
  return path;
}

bool segments_cross(Point2 a, Point2 b, Point2 c, Point2 d) {
  auto side = [](Point2 o, Point2 p, Point2 q) {
    return (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  };
  const double d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

bool routes_better(const RouteFigures& now, const RouteFigures& best) {
  if (now.one_line > best.one_line) return false;
  if (now.crossings != best.crossings) return now.crossings < best.crossings;
  if (now.near_shapes != best.near_shapes) return now.near_shapes < best.near_shapes;
  return now.length < best.length - 0.5;
}

RouteFigures measure_routes(const Drawing& drawing, const IndexedGraph& graph,
                            const std::vector<EdgeRoute>& routes) {
  RouteFigures figures;
  std::vector<std::vector<Point2>> paths(routes.size());
  std::vector<Box> bounds(routes.size());
  for (size_t i = 0; i < routes.size(); ++i) {
    const IndexedGraph::Edge& edge = graph.edges[i];
    if (edge.source == edge.target) continue;
    paths[i] = path_of(drawing.nodes[static_cast<size_t>(edge.source)],
                       drawing.nodes[static_cast<size_t>(edge.target)], routes[i]);
    Box box{paths[i].front().x, paths[i].front().y, 0, 0};
    for (size_t k = 0; k + 1 < paths[i].size(); ++k) {
      figures.length +=
          std::hypot(paths[i][k + 1].x - paths[i][k].x, paths[i][k + 1].y - paths[i][k].y);
      box = unite(box, Box{paths[i][k + 1].x, paths[i][k + 1].y, 0, 0});
    }
    bounds[i] = box;
    for (size_t n = 0; n < drawing.nodes.size(); ++n) {
      if (static_cast<int>(n) == edge.source || static_cast<int>(n) == edge.target) continue;
      const Box& node = drawing.nodes[n];
      const Rect shape{node.x, node.y, node.w, node.h};
      if (!shape.overlaps(Rect{box.x, box.y, box.w, box.h}, kShapeClearance)) continue;
      for (size_t k = 0; k + 1 < paths[i].size(); ++k) {
        const Point2 a = paths[i][k], b = paths[i][k + 1];
        if (shape.segment_enters(a.x, a.y, b.x, b.y, -(kShapeClearance - 0.5))) {
          ++figures.near_shapes;
          break;
        }
      }
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = i + 1; j < paths.size(); ++j) {
      if (paths[i].empty() || paths[j].empty()) continue;
      const Box& a = bounds[i];
      const Box& b = bounds[j];
      if (a.x > b.right() || b.x > a.right() || a.y > b.bottom() || b.y > a.bottom()) continue;
      for (size_t k = 0; k + 1 < paths[i].size(); ++k) {
        for (size_t m = 0; m + 1 < paths[j].size(); ++m) {
          if (segments_cross(paths[i][k], paths[i][k + 1], paths[j][m], paths[j][m + 1]))
            ++figures.crossings;
          if (one_line(paths[i][k], paths[i][k + 1], paths[j][m], paths[j][m + 1]))
            ++figures.one_line;
        }
      }
    }
  }
  return figures;
}

void place_labels(const Drawing& drawing, const IndexedGraph& graph,
                  const std::vector<LayoutEdge>& edges, std::vector<EdgeRoute>& routes,
                  const std::vector<std::optional<Box>>& borders,
                  const std::vector<std::optional<Box>>& titles) {
  std::vector<std::vector<Point2>> paths(routes.size());
  SegmentGrid grid;
  for (size_t i = 0; i < routes.size(); ++i) {
    const IndexedGraph::Edge& edge = graph.edges[i];
    if (edge.source == edge.target) continue;
    paths[i] = path_of(drawing.nodes[static_cast<size_t>(edge.source)],
                       drawing.nodes[static_cast<size_t>(edge.target)], routes[i]);
    for (size_t k = 0; k + 1 < paths[i].size(); ++k)
      grid.add(Segment{paths[i][k], paths[i][k + 1], i});
  }
  // Node boxes by grid cell.
  std::unordered_map<long long, std::vector<size_t>> node_cells;
  auto cells_of = [](const Box& box, auto&& fn) {
    for (auto x = static_cast<long long>(std::floor(box.x / kCell));
         x <= static_cast<long long>(std::floor(box.right() / kCell)); ++x) {
      for (auto y = static_cast<long long>(std::floor(box.y / kCell));
           y <= static_cast<long long>(std::floor(box.bottom() / kCell)); ++y)
        fn(x * 1000003LL + y);
    }
  };
  for (size_t n = 0; n < drawing.nodes.size(); ++n)
    cells_of(drawing.nodes[n], [&](long long key) { node_cells[key].push_back(n); });
  std::vector<Box> placed;
  for (size_t i = 0; i < routes.size(); ++i) {
    if (edges[i].label_width <= 0 || paths[i].size() < 2) continue;
    const IndexedGraph::Edge& edge = graph.edges[i];
    double best_score = 1e18, best_fraction = 0.5;
    for (int k = 0; k <= kLabelSteps; ++k) {
      const int step = (k + 1) / 2;  // 0, 1, 1, 2, 2, …: alternately after and before the middle
      const double fraction = 0.5 + (k % 2 == 0 ? 1 : -1) * kLabelStep * static_cast<double>(step);
      const Point2 at = along(paths[i], fraction);
      const Box box{at.x - edges[i].label_width / 2, at.y - edges[i].label_height / 2,
                    edges[i].label_width, edges[i].label_height};
      double score = std::abs(fraction - 0.5);
      std::vector<size_t> hit;
      const Box reach = grown(box, kShapeGap);
      cells_of(reach, [&](long long key) {
        const auto it = node_cells.find(key);
        if (it == node_cells.end()) return;
        for (size_t n : it->second) {
          if (overlap(reach, drawing.nodes[n])) hit.push_back(n);
        }
      });
      std::sort(hit.begin(), hit.end());
      hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
      for (size_t n : hit) {
        const bool end = static_cast<int>(n) == edge.source || static_cast<int>(n) == edge.target;
        if (overlap(box, drawing.nodes[n])) {
          score += end ? 10 : 1000;
        } else if (!end) {
          score += kShapeNearCost;  // beside a shape it does not belong to
        }
      }
      for (const Box& other : placed) {
        if (overlap(box, other)) score += 1000;
      }
      // Another edge through the label hides both; one within kClearance of it makes the label
      // read as that edge's.
      const int through = grid.crossing(box, i);
      const int near = grid.crossing(grown(box, kClearance), i) - through;
      score += kThroughCost * through + kNearCost * near + (near > 0 ? kLineNearCost : 0);
      // On a corner of its own route the label belongs to neither run; across a group's border
      // it belongs to neither group.
      for (size_t corner = 1; corner + 1 < paths[i].size(); ++corner) {
        if (contains(grown(box, kCornerMargin), paths[i][corner])) score += kCornerCost;
      }
      const Box clear = grown(box, kClearance);
      for (const std::optional<Box>& cluster : borders) {
        if (!cluster) continue;
        if (straddles(box, *cluster)) {
          score += kBorderCost;
        } else if (straddles(clear, *cluster)) {
          score += kFrameNearCost;
        }
      }
      for (const std::optional<Box>& title : titles) {
        if (title && overlap(clear, *title)) score += kTitleNearCost;
      }
      if (score < best_score) {
        best_score = score;
        best_fraction = fraction;
      }
    }
    const Point2 at = along(paths[i], best_fraction);
    placed.push_back(Box{at.x - edges[i].label_width / 2, at.y - edges[i].label_height / 2,
                         edges[i].label_width, edges[i].label_height});
    routes[i].label_position = 2 * best_fraction - 1;
    routes[i].label_point = at;
  }
}

}  // namespace fcp::drawio::layout::detail
