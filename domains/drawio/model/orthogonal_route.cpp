#include "domains/drawio/model/orthogonal_route.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <system_error>

namespace fcp::drawio {
namespace {

bool empty_box(const Rect& box) {
  return box.width <= 0 && box.height <= 0;
}

// The direction a port leaves `box` in, as mxEdgeStyle.OrthConnector fixes it: outward from the
// side it lies on (within 1 px). At a corner the left or right side: draw.io takes the top or
// bottom there, which routes (and the warnings and re-routes built on them) do not follow yet.
// A port off every side (inside the box, as exitX=0.1 at a brace's tip) or a free end (an empty
// box) has no side: it points at `other` when level with it (a straight run), else along the
// route's axis toward it.
PathPoint outward(const Rect& box, PathPoint port, PathPoint other, bool vertical) {
  if (!empty_box(box)) {
    if (std::abs(port.x - box.x) <= 1) return {-1, 0};
    if (std::abs(port.x - box.right()) <= 1) return {1, 0};
    if (std::abs(port.y - box.y) <= 1) return {0, -1};
    if (std::abs(port.y - box.bottom()) <= 1) return {0, 1};
  }
  if (std::abs(other.x - port.x) < 0.5 && std::abs(other.y - port.y) >= 0.5) vertical = true;
  if (std::abs(other.y - port.y) < 0.5 && std::abs(other.x - port.x) >= 0.5) vertical = false;
  if (vertical) return {0, other.y >= port.y ? 1.0 : -1.0};
  return {other.x >= port.x ? 1.0 : -1.0, 0};
}

// A port on the side of `box` facing `other` along the chosen axis, in the middle of the span
// the two boxes share across it (the box's centre line when they share none).
PathPoint facing_port(const Rect& box, const Rect& other, bool vertical) {
  if (vertical) {
    const double lo = std::max(box.x, other.x), hi = std::min(box.right(), other.right());
    const double x = lo <= hi ? (lo + hi) / 2 : box.center_x();
    return {x, other.center_y() >= box.center_y() ? box.bottom() : box.y};
  }
  const double lo = std::max(box.y, other.y), hi = std::min(box.bottom(), other.bottom());
  const double y = lo <= hi ? (lo + hi) / 2 : box.center_y();
  return {other.center_x() >= box.center_x() ? box.right() : box.x, y};
}

// Whether `to` lies ahead of `from` going `dir` (not behind it, not level with it).
bool ahead(PathPoint from, PathPoint dir, PathPoint to) {
  return (to.x - from.x) * dir.x + (to.y - from.y) * dir.y > 0.5;
}
bool not_behind(PathPoint from, PathPoint dir, PathPoint to) {
  return (to.x - from.x) * dir.x + (to.y - from.y) * dir.y > -0.5;
}

// The way from the end of the source's jetty (`a2`, heading `da`) to the end of the target's
// (`b2`, which the route leaves toward its port heading -`db`): one or two corners, turning
// back on neither jetty and through neither box; the fewest corners, then the shortest. A
// straight L when every way is blocked (the boxes overlap).
std::vector<PathPoint> between_jetties(PathPoint a2, PathPoint da, PathPoint b2, PathPoint db,
                                       const Rect& s, const Rect& t, double buffer) {
  const auto through_a_box = [&](PathPoint p, PathPoint q) {
    return s.segment_enters(p.x, p.y, q.x, q.y, 0.5) || t.segment_enters(p.x, p.y, q.x, q.y, 0.5);
  };
  std::vector<PathPoint> best;
  std::size_t best_corners = std::numeric_limits<std::size_t>::max();
  double best_length = std::numeric_limits<double>::infinity();
  const auto consider = [&](std::vector<PathPoint> corners) {
    if (corners.empty() || !not_behind(a2, da, corners.front()) ||
        !not_behind(b2, db, corners.back()))
      return;
    std::vector<PathPoint> path{a2};
    path.insert(path.end(), corners.begin(), corners.end());
    path.push_back(b2);
    double length = 0;
    for (std::size_t i = 1; i < path.size(); ++i) {
      if (through_a_box(path[i - 1], path[i])) return;
      length += std::abs(path[i].x - path[i - 1].x) + std::abs(path[i].y - path[i - 1].y);
    }
    const std::size_t turns = simplified(path).size();
    if (turns < best_corners || (turns == best_corners && length < best_length - 0.01)) {
      best_corners = turns;
      best_length = length;
      best = std::move(corners);
    }
  };
  consider({{b2.x, a2.y}});
  consider({{a2.x, b2.y}});
  // Two corners on a line mid-way between the boxes, level with a jetty's end, or beyond both.
  const std::vector<double> xs{a2.x,
                               b2.x,
                               (s.right() + t.x) / 2,
                               (t.right() + s.x) / 2,
                               std::min(s.x, t.x) - buffer,
                               std::max(s.right(), t.right()) + buffer};
  const std::vector<double> ys{a2.y,
                               b2.y,
                               (s.bottom() + t.y) / 2,
                               (t.bottom() + s.y) / 2,
                               std::min(s.y, t.y) - buffer,
                               std::max(s.bottom(), t.bottom()) + buffer};
  for (const double x : xs)
    consider({{x, a2.y}, {x, b2.y}});
  for (const double y : ys)
    consider({{a2.x, y}, {b2.x, y}});
  if (best.empty()) {
    PathPoint corner{b2.x, a2.y};
    if (!(not_behind(a2, da, corner) && not_behind(b2, db, corner))) corner = {a2.x, b2.y};
    best = {corner};
  }
  return best;
}

bool to_number(std::string_view text, double& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

}  // namespace

std::vector<PathPoint> simplified(const std::vector<PathPoint>& points, double tolerance) {
  std::vector<PathPoint> out;
  for (const PathPoint& p : points) {
    if (!out.empty() && std::abs(out.back().x - p.x) < tolerance &&
        std::abs(out.back().y - p.y) < tolerance)
      continue;
    if (out.size() >= 2) {
      const PathPoint a = out[out.size() - 2], b = out.back();
      const bool same_x = std::abs(a.x - b.x) < tolerance && std::abs(b.x - p.x) < tolerance;
      const bool same_y = std::abs(a.y - b.y) < tolerance && std::abs(b.y - p.y) < tolerance;
      if (same_x || same_y) out.pop_back();
    }
    out.push_back(p);
  }
  return out;
}

double jetty_size(std::string_view own, std::string_view shared, std::string_view arrow,
                  std::string_view marker_size) {
  const std::string_view value = !own.empty() ? own : shared;
  if (value == "auto") {
    if (arrow.empty() || arrow == "none") return 2 * kOrthBuffer;
    double size = 6;  // mxConstants.DEFAULT_MARKERSIZE
    if (!to_number(marker_size, size)) size = 6;
    return std::max(2.0, std::ceil((size + kOrthBuffer) / kOrthBuffer)) * kOrthBuffer;
  }
  double px = kOrthBuffer;
  if (!to_number(value, px) || px < 0) return kOrthBuffer;
  return std::min(px, 1000.0);
}

bool orthogonal_prefers_vertical(std::string_view edge_style, std::string_view elbow, const Rect& s,
                                 const Rect& t) {
  if (edge_style == "elbowEdgeStyle") return elbow == "vertical";
  if (edge_style == "entityRelationEdgeStyle" || edge_style == "sideToSideEdgeStyle") return false;
  if (edge_style == "topToBottomEdgeStyle") return true;
  const double horizontal_gap = std::max(t.x - s.right(), s.x - t.right());
  const double vertical_gap = std::max(t.y - s.bottom(), s.y - t.bottom());
  return vertical_gap > horizontal_gap;
}

std::vector<PathPoint> default_orthogonal_route(const OrthogonalEnd& source,
                                                const OrthogonalEnd& target, bool vertical) {
  const Rect& s = source.box;
  const Rect& t = target.box;
  const PathPoint a = source.port.value_or(facing_port(s, t, vertical));
  const PathPoint b = target.port.value_or(facing_port(t, s, vertical));
  // An automatic port leaves the side it was put on, facing the other end along the axis (also
  // where the boxes touch and it lies on a corner).
  const auto facing = [&](const Rect& box, const Rect& other) {
    if (vertical) return PathPoint{0, other.center_y() >= box.center_y() ? 1.0 : -1.0};
    return PathPoint{other.center_x() >= box.center_x() ? 1.0 : -1.0, 0};
  };
  const PathPoint da = source.port || empty_box(s) ? outward(s, a, b, vertical) : facing(s, t);
  const PathPoint db = target.port || empty_box(t) ? outward(t, b, a, vertical) : facing(t, s);
  const bool a_vertical = da.y != 0, b_vertical = db.y != 0;
  if (a_vertical == b_vertical && ahead(a, da, b) && ahead(b, db, a)) {
    if (std::abs(a_vertical ? a.x - b.x : a.y - b.y) < 0.5) return {a, b};
    if (!a_vertical) {
      const double mx = (a.x + b.x) / 2;
      return {a, {mx, a.y}, {mx, b.y}, b};
    }
    const double my = (a.y + b.y) / 2;
    return {a, {a.x, my}, {b.x, my}, b};
  }
  if (a_vertical != b_vertical) {
    const PathPoint corner = a_vertical ? PathPoint{a.x, b.y} : PathPoint{b.x, a.y};
    if (ahead(a, da, corner) && ahead(b, db, corner)) return {a, corner, b};
  }
  // A port faces away: out of both ports first (draw.io's jetties), then round the boxes.
  const PathPoint a2{a.x + da.x * source.jetty, a.y + da.y * source.jetty};
  const PathPoint b2{b.x + db.x * target.jetty, b.y + db.y * target.jetty};
  std::vector<PathPoint> path{a, a2};
  const std::vector<PathPoint> corners =
      between_jetties(a2, da, b2, db, s, t, std::max(source.jetty, target.jetty));
  path.insert(path.end(), corners.begin(), corners.end());
  path.push_back(b2);
  path.push_back(b);
  return simplified(path);
}

}  // namespace fcp::drawio
