#include "domains/drawio/export/svg_edges.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <tuple>
#include <utility>

#include "domains/drawio/export/svg_paint.hpp"
#include "domains/drawio/model/orthogonal_route.hpp"
#include "domains/drawio/rect.hpp"

namespace fcp::drawio::render::detail {
namespace {

enum class Axis { none, horizontal, vertical };

bool is_orthogonal(const StyleView& style) {
  const std::string_view edge_style = style.text("edgeStyle");
  return edge_style == "orthogonalEdgeStyle" || edge_style == "elbowEdgeStyle" ||
         edge_style == "entityRelationEdgeStyle" || edge_style == "isometricEdgeStyle" ||
         edge_style == "segmentEdgeStyle" || edge_style == "sideToSideEdgeStyle" ||
         edge_style == "topToBottomEdgeStyle";
}

// The axis a segment leaves a port on: vertical from the top or bottom side.
Axis port_axis(const Box& box, Vec port) {
  const double left = std::abs(port.x - box.x), right = std::abs(port.x - box.right());
  const double top = std::abs(port.y - box.y), bottom = std::abs(port.y - box.bottom());
  return std::min(left, right) <= std::min(top, bottom) ? Axis::horizontal : Axis::vertical;
}

Vec center_of(const Terminal& end) {
  if (end.box) return end.box->center();
  return end.fixed.value_or(Vec{});
}

// The port facing `toward`: straight across when `toward` is within the box's span.
std::pair<Vec, Axis> facing_port(const Terminal& end, Vec toward) {
  if (end.fixed) return {*end.fixed, end.box ? port_axis(*end.box, *end.fixed) : Axis::none};
  const Box& b = *end.box;
  const Vec c = b.center();
  if (b.contains_x(toward.x) && !b.contains_y(toward.y)) {
    return {{toward.x, toward.y < c.y ? b.y : b.bottom()}, Axis::vertical};
  }
  if (b.contains_y(toward.y) && !b.contains_x(toward.x)) {
    return {{toward.x < c.x ? b.x : b.right(), toward.y}, Axis::horizontal};
  }
  const Vec d = toward - c;
  if (std::abs(d.x) * b.h >= std::abs(d.y) * b.w) {
    return {{d.x < 0 ? b.x : b.right(), c.y}, Axis::horizontal};
  }
  return {{c.x, d.y < 0 ? b.y : b.bottom()}, Axis::vertical};
}

// Inserts corners so every segment is axis-parallel; `out_axis` / `in_axis` are the directions
// required at the first and last point.
std::vector<Vec> orthogonalize(const std::vector<Vec>& points, Axis out_axis, Axis in_axis) {
  std::vector<Vec> out;
  if (points.empty()) return out;
  out.push_back(points.front());
  Axis previous = out_axis == Axis::vertical ? Axis::horizontal : Axis::vertical;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec a = out.back(), b = points[i];
    if (a.x != b.x && a.y != b.y) {
      bool vertical_first = previous == Axis::horizontal;
      if (i == 1 && out_axis != Axis::none) vertical_first = out_axis == Axis::vertical;
      if (i + 1 == points.size() && in_axis != Axis::none)
        vertical_first = in_axis == Axis::horizontal;
      out.push_back(vertical_first ? Vec{a.x, b.y} : Vec{b.x, a.y});
      previous = vertical_first ? Axis::horizontal : Axis::vertical;
    } else {
      previous = a.y == b.y ? Axis::horizontal : Axis::vertical;
    }
    out.push_back(b);
  }
  return out;
}

Rect rect_of(const Box& box) {
  return {box.x, box.y, box.w, box.h};
}

// draw.io's route for an orthogonal edge without waypoints, the one the batch warnings' model
// (drawn_path) describes: default_orthogonal_route. A free end is an empty box at its point.
std::vector<Vec> elbow_route(const StyleView& style, const Terminal& source,
                             const Terminal& target) {
  const auto end_of = [](const Terminal& end) {
    if (!end.box) {
      const Vec at = center_of(end);
      return OrthogonalEnd{Rect{at.x, at.y, 0, 0}, std::nullopt};
    }
    std::optional<PathPoint> port;
    if (end.fixed) port = PathPoint{end.fixed->x, end.fixed->y};
    return OrthogonalEnd{rect_of(*end.box), port};
  };
  OrthogonalEnd s = end_of(source), t = end_of(target);
  s.jetty = jetty_size(style.text("sourceJettySize"), style.text("jettySize"),
                       style.text("startArrow", "none"), style.text("startSize"));
  t.jetty = jetty_size(style.text("targetJettySize"), style.text("jettySize"),
                       style.text("endArrow", "classic"), style.text("endSize"));
  const bool vertical =
      orthogonal_prefers_vertical(style.text("edgeStyle"), style.text("elbow"), s.box, t.box);
  std::vector<Vec> route;
  for (const PathPoint& p : default_orthogonal_route(s, t, vertical))
    route.push_back({p.x, p.y});
  return route;
}

void remove_repeats(std::vector<Vec>& points) {
  points.erase(std::unique(points.begin(), points.end(),
                           [](Vec a, Vec b) { return (a - b).length() < 0.01; }),
               points.end());
}

// The smallest t > 0 at which the ray c + t·d meets the closed polygon `corners` (1 when it
// meets none, which a ray from inside a convex polygon cannot do).
double ray_exit(Vec c, Vec d, std::span<const Vec> corners) {
  double best = INFINITY;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec p = corners[i], e = corners[(i + 1) % corners.size()] - p;
    const double denominator = d.x * e.y - d.y * e.x;
    if (std::abs(denominator) < 1e-12) continue;
    const Vec w = p - c;
    const double t = (w.x * e.y - w.y * e.x) / denominator;
    const double u = (w.x * d.y - w.y * d.x) / denominator;
    if (t > 0 && u >= -1e-9 && u <= 1 + 1e-9) best = std::min(best, t);
  }
  return std::isfinite(best) ? best : 1;
}

// The outline's corners of a hexagon or parallelogram perimeter (see perimeter_point).
std::vector<Vec> outline_corners(const Box& box, Perimeter perimeter, double size) {
  const double x = box.x, y = box.y, r = box.right(), b = box.bottom(), hh = box.h / 2;
  if (perimeter == Perimeter::hexagon) {
    const double s = std::clamp(size, 0.0, box.w / 2);
    return {{x + s, y}, {r - s, y}, {r, y + hh}, {r - s, b}, {x + s, b}, {x, y + hh}};
  }
  const double s = std::clamp(size, 0.0, box.w);
  return {{x, b}, {x + s, y}, {r, y}, {r - s, b}};
}

// Whether `p` lies on or inside the shape's outline (a convex one: every perimeter here is).
bool inside_outline(const Box& box, Perimeter perimeter, double size, Vec p) {
  const Vec c = box.center();
  const double hw = box.w / 2, hh = box.h / 2;
  switch (perimeter) {
    case Perimeter::rectangle:
      return std::abs(p.x - c.x) <= hw && std::abs(p.y - c.y) <= hh;
    case Perimeter::ellipse:
      return std::hypot((p.x - c.x) / hw, (p.y - c.y) / hh) <= 1;
    case Perimeter::rhombus:
      return std::abs(p.x - c.x) / hw + std::abs(p.y - c.y) / hh <= 1;
    case Perimeter::hexagon:
    case Perimeter::parallelogram: {
      const auto corners = outline_corners(box, perimeter, size);
      double sign = 0;
      for (std::size_t i = 0; i < corners.size(); ++i) {
        const Vec a = corners[i], e = corners[(i + 1) % corners.size()] - a;
        const double side = e.x * (p.y - a.y) - e.y * (p.x - a.x);
        if (std::abs(side) < 1e-9) continue;
        if (sign == 0) sign = side;
        if ((side > 0) != (sign > 0)) return false;
      }
      return true;
    }
  }
  return true;
}

// An orthogonal route's end `port` on the box's side, moved on along the run that reaches it
// (from `from`) to where that run meets the shape's outline, as draw.io ends it: an arrow into a
// hexagon, ellipse, cloud or rhombus touches the outline, not the bounding box. The port itself
// when the run does not meet the outline inside the box.
Vec onto_outline(const Terminal& end, Vec port, Vec from) {
  if (!end.box || end.perimeter == Perimeter::rectangle) return port;
  const Box& box = *end.box;
  const Vec d = port - from;
  const double length = d.length();
  if (length < 1e-9 || box.w <= 0 || box.h <= 0) return port;
  if (inside_outline(box, end.perimeter, end.size, port)) return port;
  const Vec u = d * (1 / length);
  const double reach = box.w + box.h;
  constexpr double kStep = 0.5;
  double outside = 0;
  for (double t = kStep; t <= reach; t += kStep) {
    const Vec p = port + u * t;
    if (!box.contains_x(p.x) || !box.contains_y(p.y)) break;
    if (!inside_outline(box, end.perimeter, end.size, p)) {
      outside = t;
      continue;
    }
    double lo = outside, hi = t;  // the outline lies between
    for (int i = 0; i < 30; ++i) {
      const double mid = (lo + hi) / 2;
      (inside_outline(box, end.perimeter, end.size, port + u * mid) ? hi : lo) = mid;
    }
    return port + u * hi;
  }
  return port;
}

}  // namespace

Vec run_onto_outline(const Terminal& end, Vec port, Vec from) {
  return onto_outline(end, port, from);
}

Vec perimeter_point(const Box& box, Perimeter perimeter, Vec toward, double size) {
  const Vec c = box.center();
  const Vec d = toward - c;
  const double hw = box.w / 2, hh = box.h / 2;
  if ((d.x == 0 && d.y == 0) || hw <= 0 || hh <= 0) return c;
  double t = 0;
  switch (perimeter) {
    case Perimeter::ellipse:
      t = 1 / std::hypot(d.x / hw, d.y / hh);
      break;
    case Perimeter::rhombus:
      t = 1 / (std::abs(d.x) / hw + std::abs(d.y) / hh);
      break;
    case Perimeter::rectangle:
      t = std::min(d.x != 0 ? hw / std::abs(d.x) : INFINITY,
                   d.y != 0 ? hh / std::abs(d.y) : INFINITY);
      break;
    case Perimeter::hexagon: {
      const double s = std::clamp(size, 0.0, hw), x = box.x, y = box.y, r = box.right(),
                   b = box.bottom();
      const std::array<Vec, 6> corners{
          {{x + s, y}, {r - s, y}, {r, y + hh}, {r - s, b}, {x + s, b}, {x, y + hh}}};
      t = ray_exit(c, d, corners);
      break;
    }
    case Perimeter::parallelogram: {
      const double s = std::clamp(size, 0.0, box.w), x = box.x, y = box.y, r = box.right(),
                   b = box.bottom();
      const std::array<Vec, 4> corners{{{x, b}, {x + s, y}, {r, y}, {r - s, b}}};
      t = ray_exit(c, d, corners);
      break;
    }
  }
  return c + d * t;
}

std::vector<Vec> route_edge(const StyleView& style, const Terminal& source, const Terminal& target,
                            const std::vector<Vec>& waypoints) {
  if ((!source.box && !source.fixed) || (!target.box && !target.fixed)) return {};
  std::vector<Vec> route;
  if (is_orthogonal(style)) {
    if (waypoints.empty()) {
      route = elbow_route(style, source, target);
    } else {
      Axis out_axis = Axis::none, in_axis = Axis::none;
      Vec start = source.fixed.value_or(Vec{}), end = target.fixed.value_or(Vec{});
      if (source.box) std::tie(start, out_axis) = facing_port(source, waypoints.front());
      if (target.box) std::tie(end, in_axis) = facing_port(target, waypoints.back());
      route.push_back(start);
      route.insert(route.end(), waypoints.begin(), waypoints.end());
      route.push_back(end);
      route = orthogonalize(route, out_axis, in_axis);
    }
    remove_repeats(route);
    if (route.size() >= 2) {
      route.front() = onto_outline(source, route.front(), route[1]);
      route.back() = onto_outline(target, route.back(), route[route.size() - 2]);
    }
  } else {
    const Vec toward_source =
        waypoints.empty() ? target.fixed.value_or(center_of(target)) : waypoints.front();
    const Vec start =
        source.fixed ? *source.fixed
                     : perimeter_point(*source.box, source.perimeter, toward_source, source.size);
    const Vec toward_target = waypoints.empty() ? start : waypoints.back();
    const Vec end =
        target.fixed ? *target.fixed
                     : perimeter_point(*target.box, target.perimeter, toward_target, target.size);
    route.push_back(start);
    route.insert(route.end(), waypoints.begin(), waypoints.end());
    route.push_back(end);
  }
  remove_repeats(route);
  return route;
}

std::vector<Vec> self_loop(const Box& box) {
  const double x = box.right(), dy = std::max(box.h / 4, 5.0), c = box.center().y;
  return {{x, c - dy}, {x + 20, c - dy}, {x + 20, c + dy}, {x, c + dy}};
}

Vec point_on_route(const std::vector<Vec>& route, double relative_x, double offset_y, Vec offset) {
  if (route.empty()) return offset;
  if (route.size() == 1) return route.front() + offset;
  double total = 0;
  for (std::size_t i = 1; i < route.size(); ++i)
    total += (route[i] - route[i - 1]).length();
  double distance = (std::clamp(relative_x, -1.0, 1.0) / 2 + 0.5) * total;
  for (std::size_t i = 1; i < route.size(); ++i) {
    const Vec d = route[i] - route[i - 1];
    const double segment = d.length();
    if (distance > segment && i + 1 < route.size()) {
      distance -= segment;
      continue;
    }
    const double f = segment == 0 ? 0 : std::clamp(distance / segment, 0.0, 1.0);
    const double nx = segment == 0 ? 0 : d.y / segment, ny = segment == 0 ? 0 : d.x / segment;
    return Vec{route[i - 1].x + d.x * f + nx * offset_y, route[i - 1].y + d.y * f - ny * offset_y} +
           offset;
  }
  return route.back() + offset;
}

namespace {

// The unit vector of the last non-degenerate segment ending at route[tip].
std::optional<Vec> end_direction(const std::vector<Vec>& route, bool at_start) {
  const Vec tip = at_start ? route.front() : route.back();
  for (std::size_t k = 1; k < route.size(); ++k) {
    const Vec other = at_start ? route[k] : route[route.size() - 1 - k];
    const Vec d = tip - other;
    const double length = d.length();
    if (length > 0.01) return d * (1 / length);
  }
  return std::nullopt;
}

std::optional<Marker> end_marker(const StyleView& style, std::vector<Vec>& route, bool at_start,
                                 double stroke_width) {
  const std::string_view kind =
      style.text(at_start ? "startArrow" : "endArrow", at_start ? "none" : "classic");
  const auto unit = end_direction(route, at_start);
  if (!unit) return std::nullopt;
  ArrowEnd end;
  end.tip = at_start ? route.front() : route.back();
  end.unit = *unit;
  end.size = std::clamp(style.number(at_start ? "startSize" : "endSize", 6), 0.0, 100.0);
  end.stroke_width = stroke_width;
  end.filled = style.flag(at_start ? "startFill" : "endFill", true);
  auto marker = make_marker(kind, end);
  if (marker) (at_start ? route.front() : route.back()) = marker->line_end;
  return marker;
}

void write_line(SvgWriter& svg, const StyleView& style, const std::vector<Vec>& route,
                const Paint& paint) {
  PathData d;
  d.move(route.front());
  const bool curved = style.flag("curved", false);
  const bool rounded = style.flag("rounded", false);
  const double radius = std::clamp(style.number("arcSize", 20), 0.0, 200.0) / 2;
  for (std::size_t i = 1; i + 1 < route.size(); ++i) {
    const Vec p = route[i], a = route[i - 1], b = route[i + 1];
    if (curved) {
      const Vec next = i + 2 == route.size() ? b : (p + b) * 0.5;
      d.quad(p.x, p.y, next.x, next.y);
      if (i + 2 == route.size()) return write_path(svg, d, paint, false);
      continue;
    }
    const double la = (a - p).length(), lb = (b - p).length();
    const double r = std::min({radius, la / 2, lb / 2});
    if (!rounded || r <= 0) {
      d.line(p);
      continue;
    }
    const Vec p1 = p + (a - p) * (r / la), p2 = p + (b - p) * (r / lb);
    d.line(p1).quad(p.x, p.y, p2.x, p2.y);
  }
  d.line(route.back());
  write_path(svg, d, paint, false);
}

void write_marker(SvgWriter& svg, const Marker& marker, const Paint& paint) {
  for (const MarkerPart& part : marker.parts) {
    if (part.points.empty()) continue;
    PathData d;
    if (part.circle_radius) {
      const double r = *part.circle_radius;
      const Vec c = part.points.front();
      d.move(c.x - r, c.y).arc(r, r, true, c.x + r, c.y).arc(r, r, true, c.x - r, c.y).close();
    } else {
      d.move(part.points.front());
      for (std::size_t i = 1; i < part.points.size(); ++i)
        d.line(part.points[i]);
      if (part.closed) d.close();
    }
    Paint marker_paint = paint;
    marker_paint.dash.clear();
    marker_paint.fill = part.fill == MarkerPart::Fill::stroke  ? paint.stroke
                        : part.fill == MarkerPart::Fill::white ? std::string("#FFFFFF")
                                                               : std::string();
    write_path(svg, d, marker_paint, true);
  }
}

}  // namespace

void write_edge(SvgWriter& svg, const StyleView& style, std::vector<Vec> route) {
  if (route.size() < 2) return;
  const Paint paint = edge_paint(style);
  if (paint.stroke.empty()) return;
  const auto start = end_marker(style, route, true, paint.stroke_width);
  const auto end = end_marker(style, route, false, paint.stroke_width);
  write_line(svg, style, route, paint);
  if (start) write_marker(svg, *start, paint);
  if (end) write_marker(svg, *end, paint);
}

}  // namespace fcp::drawio::render::detail
