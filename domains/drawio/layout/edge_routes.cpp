#include "domains/drawio/layout/edge_routes.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kTolerance = 0.5;  // px: closer than this counts as aligned
constexpr size_t kMaxSplineBends = 8;

Point2 cubic(const Point2* p, double t) {
  const double s = 1 - t;
  const double a = s * s * s, b = 3 * s * s * t, c = 3 * s * t * t, d = t * t * t;
  return Point2{a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
                a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y};
}

double distance(Point2 a, Point2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

// Distance of `p` from the line through `a` and `b`.
double off_line(Point2 p, Point2 a, Point2 b) {
  const double length = distance(a, b);
  if (length < 1e-9) return distance(p, a);
  return std::abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length;
}

// Drops interior points that lie on the line between their neighbours (ends are anchors).
std::vector<Point2> drop_collinear(Point2 start, const std::vector<Point2>& points, Point2 end) {
  std::vector<Point2> kept;
  Point2 previous = start;
  for (size_t i = 0; i < points.size(); ++i) {
    const Point2 next = i + 1 < points.size() ? points[i + 1] : end;
    if (off_line(points[i], previous, next) < 1.0 || distance(points[i], previous) < 1.0) {
      continue;
    }
    kept.push_back(points[i]);
    previous = points[i];
  }
  return kept;
}

// A place on an orthogonal route in rank coordinates: `cross` across the rank axis, `lo`–`hi`
// the extent along it (a box, or a whole row for a row crossing).
struct Stop {
  double cross = 0, lo = 0, hi = 0;
  double cross_lo = 0, cross_hi = 0;  // extent across the rank axis (boxes only)
  double along() const { return (lo + hi) / 2; }
};

// A corner pair: the route turns at `first`, runs across or along, and turns again at `second`.
using Turn = std::pair<Point2, Point2>;

class RouteBuilder {
 public:
  RouteBuilder(const Drawing& drawing, bool vertical) : drawing_(drawing), vertical_(vertical) {}

  Stop node_stop(int node, bool use_row) const {
    const Box& box = drawing_.nodes[static_cast<size_t>(node)];
    Stop stop = vertical_ ? Stop{box.cx(), box.y, box.bottom(), box.x, box.right()}
                          : Stop{box.cy(), box.x, box.right(), box.y, box.bottom()};
    const int row = use_row ? drawing_.node_row[static_cast<size_t>(node)] : -1;
    if (row >= 0) {
      stop.lo = std::min(stop.lo, drawing_.rows[static_cast<size_t>(row)].lo);
      stop.hi = std::max(stop.hi, drawing_.rows[static_cast<size_t>(row)].hi);
    }
    return stop;
  }
  Stop crossing_stop(const RowCrossing& crossing) const {
    const Row& row = drawing_.rows[static_cast<size_t>(crossing.row)];
    return Stop{crossing.cross, row.lo, row.hi, crossing.cross, crossing.cross};
  }
  Point2 page(double cross, double along) const {
    return vertical_ ? Point2{cross, along} : Point2{along, cross};
  }

  // Appends the turns from `a` to `b` (none when they overlap on both axes).
  void connect(const Stop& a, const Stop& b, std::vector<Turn>& turns) const {
    if (b.lo >= a.hi - kTolerance || a.lo >= b.hi - kTolerance) {
      if (std::abs(a.cross - b.cross) > kTolerance) {
        const double mid =
            b.lo >= a.hi - kTolerance ? channel(a, b, a.hi, b.lo) : channel(a, b, b.hi, a.lo);
        turns.emplace_back(page(a.cross, mid), page(b.cross, mid));
      }
      return;
    }
    // Side by side on the rank axis: leave sideways and turn halfway between the boxes.
    double mid = 0;
    if (b.cross_lo >= a.cross_hi) {
      mid = (a.cross_hi + b.cross_lo) / 2;
    } else if (a.cross_lo >= b.cross_hi) {
      mid = (b.cross_hi + a.cross_lo) / 2;
    } else {
      return;
    }
    if (std::abs(a.along() - b.along()) > kTolerance) {
      turns.emplace_back(page(mid, a.along()), page(mid, b.along()));
    }
  }

  // Where in the gap [from, to] on the rank axis the route from `a` to `b` runs across: the
  // middle of the widest stretch inside the fewest clusters that do not hold both ends, so that
  // routes keep out of groups they do not belong to (cluster borders cut the gap into stretches).
  double channel(const Stop& a, const Stop& b, double from, double to) const {
    const double cross_lo = std::min(a.cross, b.cross), cross_hi = std::max(a.cross, b.cross);
    const Point2 ends[] = {page(a.cross, a.along()), page(b.cross, b.along())};
    std::vector<double> cuts{from, to};
    std::vector<Box> foreign;  // clusters the run could cross that do not hold both ends
    for (const std::optional<Box>& cluster : drawing_.clusters) {
      if (!cluster || (holds(*cluster, ends[0]) && holds(*cluster, ends[1]))) continue;
      const auto [lo, hi] = rank_extent(*cluster);
      const auto [c_lo, c_hi] = cross_extent(*cluster);
      if (hi <= from || lo >= to || c_hi <= cross_lo || c_lo >= cross_hi) continue;
      foreign.push_back(*cluster);
      for (double border : {lo, hi}) {
        if (border > from && border < to) cuts.push_back(border);
      }
    }
    if (foreign.empty()) return (from + to) / 2;
    std::sort(cuts.begin(), cuts.end());
    double best = (from + to) / 2, best_width = -1;
    size_t best_cost = foreign.size() + 1;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const double mid = (cuts[i] + cuts[i + 1]) / 2, width = cuts[i + 1] - cuts[i];
      const auto cost =
          static_cast<size_t>(std::count_if(foreign.begin(), foreign.end(), [&](const Box& c) {
            const auto [lo, hi] = rank_extent(c);
            return lo < mid && mid < hi;
          }));
      if (cost < best_cost || (cost == best_cost && width > best_width)) {
        best = mid;
        best_width = width;
        best_cost = cost;
      }
    }
    return best;
  }
  std::pair<double, double> rank_extent(const Box& box) const {
    return vertical_ ? std::pair{box.y, box.bottom()} : std::pair{box.x, box.right()};
  }
  std::pair<double, double> cross_extent(const Box& box) const {
    return vertical_ ? std::pair{box.x, box.right()} : std::pair{box.y, box.bottom()};
  }
  static bool holds(const Box& box, Point2 p) {
    return p.x >= box.x && p.x <= box.right() && p.y >= box.y && p.y <= box.bottom();
  }

  // An edge between two nodes of one row with other nodes of the row between them runs round
  // the row's near side instead of through them.
  bool detour(int source, int target, double spacing, std::vector<Turn>& turns) const {
    const int row = drawing_.node_row[static_cast<size_t>(source)];
    if (row < 0 || row != drawing_.node_row[static_cast<size_t>(target)]) return false;
    const Stop a = node_stop(source, true), b = node_stop(target, true);
    const double low = std::min(a.cross, b.cross), high = std::max(a.cross, b.cross);
    const Row& r = drawing_.rows[static_cast<size_t>(row)];
    const bool blocked = std::any_of(r.nodes.begin(), r.nodes.end(), [&](int node) {
      if (node == source || node == target) return false;
      const double cross = node_stop(node, false).cross;
      return cross > low && cross < high;
    });
    if (!blocked) return false;
    const double outside = r.lo - spacing / 2;
    turns.emplace_back(page(a.cross, outside), page(b.cross, outside));
    return true;
  }

 private:
  const Drawing& drawing_;
  bool vertical_;
};

std::vector<Turn> orthogonal_turns(const Drawing& drawing, const IndexedGraph::Edge& edge,
                                   size_t index, double spacing) {
  std::vector<Turn> turns;
  const int s = edge.source, t = edge.target;
  if (drawing.rows.empty()) {
    // Force: route along the axis on which the boxes are further apart.
    const Box& a = drawing.nodes[static_cast<size_t>(s)];
    const Box& b = drawing.nodes[static_cast<size_t>(t)];
    const double gap_y = std::max(b.y - a.bottom(), a.y - b.bottom());
    const double gap_x = std::max(b.x - a.right(), a.x - b.right());
    const RouteBuilder builder(drawing, gap_y >= gap_x);
    builder.connect(builder.node_stop(s, false), builder.node_stop(t, false), turns);
    return turns;
  }
  const RouteBuilder builder(drawing, drawing.vertical_ranks);
  const bool in_rows =
      !drawing.moved[static_cast<size_t>(s)] && !drawing.moved[static_cast<size_t>(t)];
  if (in_rows && builder.detour(s, t, spacing, turns)) return turns;
  std::vector<Stop> stops{builder.node_stop(s, in_rows)};
  if (in_rows) {
    for (const RowCrossing& crossing : drawing.crossings[index]) {
      stops.push_back(builder.crossing_stop(crossing));
    }
  }
  stops.push_back(builder.node_stop(t, in_rows));
  for (size_t i = 0; i + 1 < stops.size(); ++i)
    builder.connect(stops[i], stops[i + 1], turns);
  return turns;
}

Point2 midpoint(Point2 a, Point2 b) {
  return Point2{(a.x + b.x) / 2, (a.y + b.y) / 2};
}

// Smooths a route of turns into points on S-curves: each turn pair becomes the two inner
// control points of a cubic that starts and ends halfway along the neighbouring straight runs.
std::vector<Point2> curve_through(const std::vector<Turn>& turns, Point2 start, Point2 end) {
  std::vector<Point2> points;
  for (size_t i = 0; i < turns.size(); ++i) {
    const Point2 from = i == 0 ? start : midpoint(turns[i - 1].second, turns[i].first);
    const Point2 to = i + 1 == turns.size() ? end : midpoint(turns[i].second, turns[i + 1].first);
    const Point2 controls[] = {from, turns[i].first, turns[i].second, to};
    if (i > 0) points.push_back(from);
    for (double t : {0.25, 0.5, 0.75})
      points.push_back(cubic(controls, t));
  }
  return points;
}

std::vector<Point2> flatten(const std::vector<Turn>& turns) {
  std::vector<Point2> points;
  for (const Turn& turn : turns) {
    points.push_back(turn.first);
    points.push_back(turn.second);
  }
  return points;
}

Point2 centre(const Box& box) {
  return Point2{box.cx(), box.cy()};
}

}  // namespace

std::vector<Point2> flatten_bezier(const std::vector<Point2>& controls, int steps) {
  std::vector<Point2> points;
  if (controls.empty()) return points;
  points.push_back(controls.front());
  for (size_t i = 0; i + 3 < controls.size(); i += 3) {
    for (int step = 1; step <= steps; ++step) {
      points.push_back(cubic(&controls[i], static_cast<double>(step) / steps));
    }
  }
  return points;
}

std::vector<RowCrossing> row_crossings(const std::vector<Point2>& polyline, const Drawing& drawing,
                                       int source, int target) {
  std::vector<RowCrossing> crossings;
  const int from = drawing.node_row[static_cast<size_t>(source)];
  const int to = drawing.node_row[static_cast<size_t>(target)];
  if (from < 0 || to < 0 || std::abs(from - to) < 2) return crossings;
  const int step = to > from ? 1 : -1;
  const bool vertical = drawing.vertical_ranks;
  auto along = [vertical](Point2 p) { return vertical ? p.y : p.x; };
  auto across = [vertical](Point2 p) { return vertical ? p.x : p.y; };
  for (int row = from + step; row != to; row += step) {
    const Row& r = drawing.rows[static_cast<size_t>(row)];
    const double line = (r.lo + r.hi) / 2;
    for (size_t i = 0; i + 1 < polyline.size(); ++i) {
      const double a = along(polyline[i]) - line, b = along(polyline[i + 1]) - line;
      if (a * b > 0 || a == b) continue;
      const double t = a / (a - b);
      const double cross =
          across(polyline[i]) + t * (across(polyline[i + 1]) - across(polyline[i]));
      crossings.push_back(RowCrossing{row, cross});
      break;
    }
  }
  return crossings;
}

std::vector<Point2> spline_bends(const std::vector<Point2>& controls, const Box& source,
                                 const Box& target) {
  std::vector<Point2> points;
  for (size_t i = 0; i + 3 < controls.size(); i += 3) {
    points.push_back(cubic(&controls[i], 0.5));
    if (i + 6 < controls.size()) points.push_back(controls[i + 3]);
  }
  if (points.empty()) return points;
  if (distance(controls.front(), centre(target)) < distance(controls.front(), centre(source))) {
    std::reverse(points.begin(), points.end());
  }
  points = drop_collinear(centre(source), points, centre(target));
  if (points.size() > kMaxSplineBends) {
    std::vector<Point2> fewer;
    for (size_t i = 0; i < kMaxSplineBends; ++i) {
      fewer.push_back(points[(2 * i + 1) * points.size() / (2 * kMaxSplineBends)]);
    }
    points = std::move(fewer);
  }
  return points;
}

std::vector<std::vector<Point2>> route_edges(const Drawing& drawing, const IndexedGraph& graph,
                                             EdgeRouting routing, double spacing) {
  std::vector<std::vector<Point2>> routes(graph.edges.size());
  if (routing == EdgeRouting::straight) return routes;
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const IndexedGraph::Edge& edge = graph.edges[i];
    if (edge.source == edge.target) continue;
    if (routing == EdgeRouting::orthogonal) {
      routes[i] = flatten(orthogonal_turns(drawing, edge, i, spacing));
      continue;
    }
    if (drawing.rows.empty()) continue;  // force: straight lines read as springs
    const bool unmoved = !drawing.moved[static_cast<size_t>(edge.source)] &&
                         !drawing.moved[static_cast<size_t>(edge.target)];
    if (unmoved && drawing.curves_from_engine) {
      routes[i] = drawing.curves[i];
      continue;
    }
    routes[i] = curve_through(orthogonal_turns(drawing, edge, i, spacing),
                              centre(drawing.nodes[static_cast<size_t>(edge.source)]),
                              centre(drawing.nodes[static_cast<size_t>(edge.target)]));
  }
  return routes;
}

}  // namespace fcp::drawio::layout::detail
