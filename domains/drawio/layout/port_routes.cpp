#include "domains/drawio/layout/port_routes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

namespace fcp::drawio::layout {
namespace {

struct Rect {
  double left = 0, top = 0, right = 0, bottom = 0;
};

Rect grown(const ClusterBox& box, double by) {
  return {box.x - by, box.y - by, box.x + box.width + by, box.y + box.height + by};
}

bool meets(const Rect& a, const Rect& b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

constexpr double kMinStep = 15;  // px: a shorter first or last run reads as a kink

// Moves right, down, left, up (y down).
constexpr std::array<int, 4> kDx = {1, 0, -1, 0};
constexpr std::array<int, 4> kDy = {0, 1, 0, -1};

// The side a port leaves through: the one nearest to it (0 right, 1 bottom, 2 left, 3 top).
int side_of(const PortEnd& end) {
  const double fx = std::clamp(end.port.x, 0.0, 1.0), fy = std::clamp(end.port.y, 0.0, 1.0);
  const std::array<double, 4> distance = {(1 - fx) * end.box.width, (1 - fy) * end.box.height,
                                          fx * end.box.width, fy * end.box.height};
  return static_cast<int>(std::min_element(distance.begin(), distance.end()) - distance.begin());
}

// The port's point on the side it leaves through.
Point2 port_point(const PortEnd& end, int side) {
  Point2 p{end.box.x + std::clamp(end.port.x, 0.0, 1.0) * end.box.width,
           end.box.y + std::clamp(end.port.y, 0.0, 1.0) * end.box.height};
  if (side == 0) p.x = end.box.x + end.box.width;
  if (side == 1) p.y = end.box.y + end.box.height;
  if (side == 2) p.x = end.box.x;
  if (side == 3) p.y = end.box.y;
  return p;
}

// Whether the axis-aligned segment a–b enters the inside of a rectangle.
bool blocked(Point2 a, Point2 b, const std::vector<Rect>& rects) {
  const Rect span{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
  return std::any_of(rects.begin(), rects.end(), [&span](const Rect& r) {
    if (span.top == span.bottom)  // horizontal
      return r.top < span.top && span.top < r.bottom && span.left < r.right && r.left < span.right;
    return r.left < span.left && span.left < r.right && span.top < r.bottom && r.top < span.bottom;
  });
}

// Sorted distinct values with the midpoint of every neighbouring pair added (routes may then run
// in the middle of a gap, not only along the clearance of its sides).
std::vector<double> grid_lines(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const size_t n = values.size();
  for (size_t i = 0; i + 1 < n; ++i)
    values.push_back((values[i] + values[i + 1]) / 2);
  std::sort(values.begin(), values.end());
  return values;
}

size_t index_of(const std::vector<double>& lines, double value) {
  return static_cast<size_t>(std::lower_bound(lines.begin(), lines.end(), value) - lines.begin());
}

// Drops the interior points that lie on a straight line between their neighbours.
std::vector<Point2> corners(const std::vector<Point2>& path) {
  std::vector<Point2> out;
  for (size_t i = 1; i + 1 < path.size(); ++i) {
    const Point2 a = out.empty() ? path.front() : out.back();
    const Point2 p = path[i], b = path[i + 1];
    const bool straight = (a.x == p.x && p.x == b.x) || (a.y == p.y && p.y == b.y);
    if (!straight) out.push_back(p);
  }
  return out;
}

std::optional<std::vector<Point2>> search(Point2 start, int start_dir, Point2 goal, int goal_dir,
                                          const std::vector<Rect>& rects, double bend_cost) {
  std::vector<double> x_values{start.x, goal.x}, y_values{start.y, goal.y};
  for (const Rect& r : rects) {
    // Just outside the clearance: a route along a box keeps exactly its distance.
    x_values.insert(x_values.end(), {r.left - 0.5, r.right + 0.5});
    y_values.insert(y_values.end(), {r.top - 0.5, r.bottom + 0.5});
  }
  const std::vector<double> xs = grid_lines(std::move(x_values));
  const std::vector<double> ys = grid_lines(std::move(y_values));
  const size_t nx = xs.size(), ny = ys.size();
  auto state = [&](size_t ix, size_t iy, int dir) {
    return (iy * nx + ix) * 4 + static_cast<size_t>(dir);
  };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> cost(nx * ny * 4, kInf);
  std::vector<size_t> from(nx * ny * 4, std::numeric_limits<size_t>::max());
  using Entry = std::pair<double, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  const size_t first = state(index_of(xs, start.x), index_of(ys, start.y), start_dir);
  cost[first] = 0;
  open.emplace(0, first);
  const size_t goal_x = index_of(xs, goal.x), goal_y = index_of(ys, goal.y);
  std::optional<size_t> best;
  double best_cost = kInf;
  while (!open.empty()) {
    const auto [c, s] = open.top();
    open.pop();
    if (c > cost[s] || c >= best_cost) continue;
    const size_t cell = s / 4;
    const int dir = static_cast<int>(s % 4);
    const size_t ix = cell % nx, iy = cell / nx;
    if (ix == goal_x && iy == goal_y) {
      // The last run reaches the target moving into its side.
      const double total = c + (dir == goal_dir ? 0 : bend_cost);
      if (total < best_cost) {
        best_cost = total;
        best = s;
      }
      continue;
    }
    for (int next = 0; next < 4; ++next) {
      if (next == (dir + 2) % 4) continue;  // no turning back on itself
      const auto jx = static_cast<std::ptrdiff_t>(ix) + kDx[static_cast<size_t>(next)];
      const auto jy = static_cast<std::ptrdiff_t>(iy) + kDy[static_cast<size_t>(next)];
      if (jx < 0 || jy < 0 || static_cast<size_t>(jx) >= nx || static_cast<size_t>(jy) >= ny)
        continue;
      const Point2 a{xs[ix], ys[iy]};
      const Point2 b{xs[static_cast<size_t>(jx)], ys[static_cast<size_t>(jy)]};
      if (blocked(a, b, rects)) continue;
      const double step = std::abs(b.x - a.x) + std::abs(b.y - a.y) + (next == dir ? 0 : bend_cost);
      const size_t t = state(static_cast<size_t>(jx), static_cast<size_t>(jy), next);
      if (c + step < cost[t]) {
        cost[t] = c + step;
        from[t] = s;
        open.emplace(cost[t], t);
      }
    }
  }
  if (!best) return std::nullopt;
  std::vector<Point2> path;
  for (size_t s = *best; s != std::numeric_limits<size_t>::max(); s = from[s]) {
    const size_t cell = s / 4;
    path.push_back({xs[cell % nx], ys[cell / nx]});
  }
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

std::optional<std::vector<Point2>> route_between_ports(const PortEnd& source, const PortEnd& target,
                                                       const std::vector<ClusterBox>& obstacles,
                                                       double clearance) {
  const int exit_side = side_of(source), entry_side = side_of(target);
  const Point2 exit = port_point(source, exit_side), entry = port_point(target, entry_side);
  // Straight out of each side before the first turn: a clearance, and no shorter than a step
  // reads as one (kMinStep).
  const double stub = std::max(clearance, kMinStep);
  const Point2 start{exit.x + kDx[static_cast<size_t>(exit_side)] * stub,
                     exit.y + kDy[static_cast<size_t>(exit_side)] * stub};
  const Point2 goal{entry.x + kDx[static_cast<size_t>(entry_side)] * stub,
                    entry.y + kDy[static_cast<size_t>(entry_side)] * stub};
  const Rect source_rect = grown(source.box, clearance - 0.5);
  const Rect target_rect = grown(target.box, clearance - 0.5);
  const std::vector<Rect> ends{source_rect, target_rect};
  if (meets(source_rect, target_rect)) return std::nullopt;

  const Rect around{std::min(source_rect.left, target_rect.left),
                    std::min(source_rect.top, target_rect.top),
                    std::max(source_rect.right, target_rect.right),
                    std::max(source_rect.bottom, target_rect.bottom)};
  for (double margin = 200;; margin *= 3) {
    const Rect region{around.left - margin, around.top - margin, around.right + margin,
                      around.bottom + margin};
    std::vector<Rect> rects = ends;
    bool all = true;
    for (const ClusterBox& box : obstacles) {
      const Rect r = grown(box, clearance - 0.5);
      if (meets(r, region)) {
        rects.push_back(r);
      } else {
        all = false;
      }
    }
    // The stubs out of the ends must be free of other boxes.
    const std::vector<Rect> others(rects.begin() + 2, rects.end());
    if (blocked(exit, start, others) || blocked(goal, entry, others)) return std::nullopt;
    const int goal_dir = (entry_side + 2) % 4;
    if (auto path = search(start, exit_side, goal, goal_dir, rects, 4 * clearance)) {
      path->insert(path->begin(), exit);
      path->push_back(entry);
      return corners(*path);
    }
    if (all) return std::nullopt;
  }
}

}  // namespace fcp::drawio::layout
