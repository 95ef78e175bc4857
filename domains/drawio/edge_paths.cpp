#include "domains/drawio/edge_paths.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <queue>
#include <string>
#include <system_error>

#include "domains/drawio/scene.hpp"

namespace fcp::drawio {
namespace {

constexpr double kTurnCost = 40;  // px a turn costs a route (fewer corners over a shorter route)
constexpr std::size_t kMaxGridLines = 400;  // per axis: obstacles beyond that are not routed round

bool to_number(std::string_view text, double& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

// The port the style fixes on `box` (exitX/exitY or entryX/entryY), if any.
std::optional<PathPoint> fixed_port(const Cell& edge, const Rect& box, std::string_view port) {
  const auto px = edge.style_value(std::string(port) + "X");
  const auto py = edge.style_value(std::string(port) + "Y");
  double fx = 0, fy = 0;
  if (px && py && to_number(*px, fx) && to_number(*py, fy))
    return PathPoint{box.x + fx * box.width, box.y + fy * box.height};
  return std::nullopt;
}

// Where an edge with waypoints meets `box`: its fixed port, else, for the orthogonal styles,
// straight across toward `toward` when that lies within the box's span, else the centre.
PathPoint edge_end(const Cell& edge, const Rect& box, PathPoint toward, bool orthogonal,
                   std::string_view port) {
  if (auto fixed = fixed_port(edge, box, port)) return *fixed;
  const PathPoint centre{box.center_x(), box.center_y()};
  if (!orthogonal) return centre;
  const bool in_x = toward.x >= box.x && toward.x <= box.right();
  const bool in_y = toward.y >= box.y && toward.y <= box.bottom();
  if (in_x && !in_y) return {toward.x, toward.y < centre.y ? box.y : box.bottom()};
  if (in_y && !in_x) return {toward.x < centre.x ? box.x : box.right(), toward.y};
  return centre;
}

// draw.io's route for an orthogonal edge without waypoints: see default_orthogonal_route.
std::vector<PathPoint> default_orthogonal(const Cell& edge, const Rect& s, const Rect& t) {
  const bool vertical = orthogonal_prefers_vertical(edge.style_value("edgeStyle").value_or(""),
                                                    edge.style_value("elbow").value_or(""), s, t);
  const auto text = [&](std::string_view key) { return edge.style_value(key).value_or(""); };
  const OrthogonalEnd source{
      s, fixed_port(edge, s, "exit"),
      jetty_size(text("sourceJettySize"), text("jettySize"),
                 edge.style_value("startArrow").value_or("none"), text("startSize"))};
  const OrthogonalEnd target{
      t, fixed_port(edge, t, "entry"),
      jetty_size(text("targetJettySize"), text("jettySize"),
                 edge.style_value("endArrow").value_or("classic"), text("endSize"))};
  return default_orthogonal_route(source, target, vertical);
}

}  // namespace

bool orthogonal_edge(const Cell& edge) {
  const auto style = edge.style_value("edgeStyle");
  return style && (*style == "orthogonalEdgeStyle" || *style == "elbowEdgeStyle" ||
                   *style == "segmentEdgeStyle");
}

std::vector<PathPoint> drawn_path(const Cell& edge, const Rect& source, const Rect& target,
                                  PathPoint offset) {
  std::vector<PathPoint> points;
  if (edge.geometry && edge.geometry->points) {
    for (const Point& p : *edge.geometry->points)
      points.push_back({p.x_or_zero() + offset.x, p.y_or_zero() + offset.y});
  }
  const bool orthogonal = orthogonal_edge(edge);
  if (orthogonal && points.empty()) return default_orthogonal(edge, source, target);
  const PathPoint first =
      points.empty() ? PathPoint{target.center_x(), target.center_y()} : points.front();
  const PathPoint last =
      points.empty() ? PathPoint{source.center_x(), source.center_y()} : points.back();
  std::vector<PathPoint> path{edge_end(edge, source, first, orthogonal, "exit")};
  path.insert(path.end(), points.begin(), points.end());
  path.push_back(edge_end(edge, target, last, orthogonal, "entry"));
  if (!orthogonal) return path;
  // A run whose ends differ by half a pixel across it (a port stored as exitY=0.67 of a 60 px
  // shape sits at 40.2, its waypoint at 40) is drawn straight: it is taken as straight here too,
  // so the checks that look for runs along one line (crossings, frames, lines shared) see it.
  constexpr double kStraight = 0.5;
  std::vector<PathPoint> cornered{path.front()};
  for (std::size_t i = 1; i < path.size(); ++i) {
    const PathPoint a = cornered.back();
    PathPoint b = path[i];
    if (std::abs(a.x - b.x) <= kStraight)
      b.x = a.x;
    else if (std::abs(a.y - b.y) <= kStraight)
      b.y = a.y;
    else
      cornered.push_back({b.x, a.y});
    cornered.push_back(b);
  }
  return cornered;
}

PathPoint edge_offset(const Page& page, const Cell& edge) {
  PathPoint offset;
  if (!edge.parent) return offset;
  const Cell* parent = page.find(*edge.parent);
  if (parent != nullptr && parent->vertex) {
    const Rect r = absolute_rect(page, *parent);
    offset = {r.x, r.y};
  }
  return offset;
}

bool draws_frame(const Cell& group) {
  return !group.style || (!group.style->has("group") && group.style->get("strokeColor") != "none");
}

FrameRun run_along_frame(std::span<const PathPoint> path, const Rect& frame, double gap,
                         double min_length) {
  FrameRun best;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const PathPoint a = path[k], b = path[k + 1];
    for (const bool horizontal : {true, false}) {
      const double across_a = horizontal ? a.y : a.x, across_b = horizontal ? b.y : b.x;
      if (across_a != across_b) continue;
      const double lo = std::max(std::min(horizontal ? a.x : a.y, horizontal ? b.x : b.y),
                                 horizontal ? frame.x : frame.y);
      const double hi = std::min(std::max(horizontal ? a.x : a.y, horizontal ? b.x : b.y),
                                 horizontal ? frame.right() : frame.bottom());
      if (hi - lo <= min_length || hi - lo <= best.length) continue;
      const double near_side = horizontal ? frame.y : frame.x;
      const double far_side = horizontal ? frame.bottom() : frame.right();
      for (const bool near : {true, false}) {
        const double side = near ? near_side : far_side;
        const double distance = std::abs(across_a - side);
        if (distance > gap || (hi - lo <= best.length && distance >= best.gap)) continue;
        best = {hi - lo, distance,
                horizontal ? (near ? Side::top : Side::bottom) : (near ? Side::left : Side::right),
                across_a > near_side && across_a < far_side};
      }
    }
  }
  return best;
}

bool path_crosses(std::span<const PathPoint> path, const Rect& box) {
  const Rect inner{box.x + 1, box.y + 1, box.width - 2, box.height - 2};
  if (inner.width <= 0 || inner.height <= 0) return false;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (inner.segment_enters(path[i].x, path[i].y, path[i + 1].x, path[i + 1].y)) return true;
  }
  return false;
}

bool path_near(std::span<const PathPoint> path, const Rect& box, double clearance) {
  return path_crosses(path, Rect{box.x - clearance, box.y - clearance, box.width + 2 * clearance,
                                 box.height + 2 * clearance});
}

Rect path_bounds(std::span<const PathPoint> path) {
  if (path.empty()) return {};
  double x0 = path.front().x, y0 = path.front().y, x1 = x0, y1 = y0;
  for (const PathPoint& p : path) {
    x0 = std::min(x0, p.x);
    y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x);
    y1 = std::max(y1, p.y);
  }
  return Rect{x0, y0, x1 - x0, y1 - y0};
}

PathPoint side_fraction(Side side) {
  switch (side) {
    case Side::top:
      return {0.5, 0};
    case Side::right:
      return {1, 0.5};
    case Side::bottom:
      return {0.5, 1};
    case Side::left:
      return {0, 0.5};
  }
  return {0.5, 0.5};
}

namespace {

// Directions of travel, in the order of Side (outward from that side).
constexpr std::array<int, 4> kDx{0, 1, 0, -1};
constexpr std::array<int, 4> kDy{-1, 0, 1, 0};

// The sparse grid an orthogonal route runs on: the lines `clearance` px round every box and the
// centre lines of the ends. A point or a run between neighbouring lines is free when it is not
// inside a box grown by almost `clearance`.
class RouteGrid {
 public:
  RouteGrid(const Rect& source, const Rect& target, std::span<const Rect> obstacles,
            double clearance)
      : clearance_(clearance) {
    blocked_.reserve(obstacles.size() + 2);
    for (const Rect* r : {&source, &target})
      add(*r);
    for (const Rect& r : obstacles)
      add(r);
    xs_.push_back(source.center_x());
    xs_.push_back(target.center_x());
    ys_.push_back(source.center_y());
    ys_.push_back(target.center_y());
    // Mid-way between the ends, where draw.io's own routes turn.
    xs_.push_back((source.right() + target.x) / 2);
    xs_.push_back((target.right() + source.x) / 2);
    ys_.push_back((source.bottom() + target.y) / 2);
    ys_.push_back((target.bottom() + source.y) / 2);
    for (auto* axis : {&xs_, &ys_}) {
      std::sort(axis->begin(), axis->end());
      axis->erase(std::unique(axis->begin(), axis->end(),
                              [](double a, double b) { return std::abs(a - b) < 0.5; }),
                  axis->end());
    }
  }

  std::size_t width() const { return xs_.size(); }
  std::size_t height() const { return ys_.size(); }
  bool too_big() const { return xs_.size() > kMaxGridLines || ys_.size() > kMaxGridLines; }
  PathPoint point(std::size_t i, std::size_t j) const { return {xs_[i], ys_[j]}; }
  std::optional<std::size_t> x_index(double x) const { return index(xs_, x); }
  std::optional<std::size_t> y_index(double y) const { return index(ys_, y); }

  bool free(PathPoint p) const {
    return std::none_of(blocked_.begin(), blocked_.end(), [&](const Rect& b) {
      return p.x > b.x && p.x < b.right() && p.y > b.y && p.y < b.bottom();
    });
  }

 private:
  void add(const Rect& r) {
    const double grow = clearance_ - 0.5;
    blocked_.push_back({r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow});
    xs_.push_back(r.x - clearance_);
    xs_.push_back(r.right() + clearance_);
    ys_.push_back(r.y - clearance_);
    ys_.push_back(r.bottom() + clearance_);
  }
  static std::optional<std::size_t> index(const std::vector<double>& axis, double v) {
    const auto it = std::lower_bound(axis.begin(), axis.end(), v - 0.5);
    if (it == axis.end() || std::abs(*it - v) >= 0.5) return std::nullopt;
    return static_cast<std::size_t>(it - axis.begin());
  }

  double clearance_;
  std::vector<Rect> blocked_;
  std::vector<double> xs_, ys_;
};

PathPoint side_middle(const Rect& r, Side side) {
  const PathPoint f = side_fraction(side);
  return {r.x + f.x * r.width, r.y + f.y * r.height};
}

std::optional<OrthogonalRoute> search(const Rect& source, const Rect& target,
                                      std::span<const Rect> obstacles, double clearance) {
  const RouteGrid grid(source, target, obstacles, clearance);
  if (grid.too_big()) return std::nullopt;
  const std::size_t w = grid.width(), h = grid.height();
  auto state = [&](std::size_t i, std::size_t j, int dir) {
    return (j * w + i) * 4 + static_cast<std::size_t>(dir);
  };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> cost(w * h * 4, kInf);
  std::vector<std::size_t> from(w * h * 4, std::numeric_limits<std::size_t>::max());
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  // Start just outside each side of the source (the first run leaves the side straight).
  for (int side = 0; side < 4; ++side) {
    const PathPoint port = side_middle(source, static_cast<Side>(side));
    const PathPoint jetty{port.x + kDx[side] * clearance, port.y + kDy[side] * clearance};
    const auto i = grid.x_index(jetty.x), j = grid.y_index(jetty.y);
    if (!i || !j || !grid.free(jetty)) continue;
    cost[state(*i, *j, side)] = clearance;
    open.emplace(clearance, state(*i, *j, side));
  }
  // Arrive just outside a side of the target, heading into it.
  std::array<std::optional<std::pair<std::size_t, std::size_t>>, 4> goals;
  for (int side = 0; side < 4; ++side) {
    const PathPoint port = side_middle(target, static_cast<Side>(side));
    const PathPoint jetty{port.x + kDx[side] * clearance, port.y + kDy[side] * clearance};
    const auto i = grid.x_index(jetty.x), j = grid.y_index(jetty.y);
    if (i && j && grid.free(jetty)) goals[static_cast<std::size_t>(side)] = std::pair{*i, *j};
  }
  double best = kInf;
  std::size_t best_state = 0;
  int best_side = 0;
  while (!open.empty()) {
    const auto [d, s] = open.top();
    open.pop();
    if (d > cost[s] || d >= best) continue;
    const int dir = static_cast<int>(s % 4);
    const std::size_t node = s / 4, i = node % w, j = node / w;
    for (int side = 0; side < 4; ++side) {
      const auto& goal = goals[static_cast<std::size_t>(side)];
      if (!goal || goal->first != i || goal->second != j) continue;
      const int inward = (side + 2) % 4;
      if (dir == side) continue;  // arriving from inside the target
      const double total = d + clearance + (dir == inward ? 0 : kTurnCost);
      if (total < best) best = total, best_state = s, best_side = side;
    }
    for (int next = 0; next < 4; ++next) {
      if (next == (dir + 2) % 4) continue;
      const auto ni = static_cast<std::ptrdiff_t>(i) + kDx[static_cast<std::size_t>(next)];
      const auto nj = static_cast<std::ptrdiff_t>(j) + kDy[static_cast<std::size_t>(next)];
      if (ni < 0 || nj < 0 || ni >= static_cast<std::ptrdiff_t>(w) ||
          nj >= static_cast<std::ptrdiff_t>(h))
        continue;
      const PathPoint a = grid.point(i, j);
      const PathPoint b = grid.point(static_cast<std::size_t>(ni), static_cast<std::size_t>(nj));
      if (!grid.free(b) || !grid.free({(a.x + b.x) / 2, (a.y + b.y) / 2})) continue;
      const double step = std::abs(a.x - b.x) + std::abs(a.y - b.y) + (next == dir ? 0 : kTurnCost);
      const std::size_t t = state(static_cast<std::size_t>(ni), static_cast<std::size_t>(nj), next);
      if (d + step < cost[t]) {
        cost[t] = d + step;
        from[t] = s;
        open.emplace(d + step, t);
      }
    }
  }
  if (best == kInf) return std::nullopt;
  std::vector<PathPoint> reversed{side_middle(target, static_cast<Side>(best_side))};
  std::size_t s = best_state;
  for (;;) {
    const std::size_t node = s / 4;
    reversed.push_back(grid.point(node % w, node / w));
    if (from[s] == std::numeric_limits<std::size_t>::max()) break;
    s = from[s];
  }
  OrthogonalRoute route;
  route.exit = static_cast<Side>(s % 4);
  route.entry = static_cast<Side>(best_side);
  reversed.push_back(side_middle(source, route.exit));
  std::reverse(reversed.begin(), reversed.end());
  route.path = simplified(reversed);
  route.corners.assign(route.path.begin() + 1, route.path.end() - 1);
  return route;
}

}  // namespace

std::optional<OrthogonalRoute> route_around(const Rect& source, const Rect& target,
                                            std::span<const Rect> obstacles, double clearance) {
  // Tight spots get a second try closer to the shapes.
  for (const double c : {clearance, clearance / 2}) {
    if (auto route = search(source, target, obstacles, c)) return route;
  }
  return std::nullopt;
}

}  // namespace fcp::drawio
