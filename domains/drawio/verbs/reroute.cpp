// Re-routing after a hand move or resize: the edges of what moved lose waypoints that no longer
// fit and get a route that runs through no shape (draw.io's own when that is clear, else one
// round the shapes in the way, written as ports and waypoints); other edges whose route the moved
// shapes now lie on are laid round them the same way.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <unordered_set>

#include "domains/drawio/edge_paths.hpp"
#include "domains/drawio/export/svg_edges.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

constexpr double kObstacleReach = 300;  // px round an edge's ends where shapes count as in the way
constexpr std::size_t kMaxEdges = 200;  // edges one op re-routes; the rest keep draw.io's routes
constexpr int kMaxDepth = 64;

bool has_waypoints(const Cell& edge) {
  return edge.geometry && edge.geometry->points && !edge.geometry->points->empty();
}

// The shapes and groups of `ids` with every shape nested in the groups among them.
std::vector<std::string> with_members(const OpContext& ctx, const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  std::vector<std::pair<std::string, int>> stack;
  for (const auto& id : ids)
    stack.emplace_back(id, 0);
  std::unordered_set<std::string> seen;
  while (!stack.empty()) {
    auto [id, depth] = std::move(stack.back());
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    out.push_back(id);
    if (depth >= kMaxDepth || ctx.index().kind(id) != CellKind::group) continue;
    for (const auto& child : ctx.index().children(id)) {
      const CellKind kind = ctx.index().kind(child);
      if (kind == CellKind::shape || kind == CellKind::group) stack.emplace_back(child, depth + 1);
    }
  }
  return out;
}

// Leaf shapes near the box `around`, other than `source` and `target`.
std::vector<Rect> obstacles_near(const OpContext& ctx, const Rect& around, std::string_view source,
                                 std::string_view target) {
  const Rect reach{around.x - kObstacleReach, around.y - kObstacleReach,
                   around.width + 2 * kObstacleReach, around.height + 2 * kObstacleReach};
  std::vector<Rect> out;
  for (const Cell& cell : ctx.page().cells()) {
    if (ctx.index().kind(cell.id) != CellKind::shape || cell.id == source || cell.id == target ||
        cell.is_text())
      continue;
    const Rect r = absolute_rect(ctx.page(), cell);
    if (r.width > 0 && r.height > 0 && r.overlaps(reach)) out.push_back(r);
  }
  return out;
}

bool crosses_any(std::span<const PathPoint> path, std::span<const Rect> obstacles) {
  return std::any_of(obstacles.begin(), obstacles.end(),
                     [&](const Rect& r) { return path_crosses(path, r); });
}

void erase_ports(Style& style) {
  for (const char* key :
       {"exitX", "exitY", "exitDx", "exitDy", "entryX", "entryY", "entryDx", "entryDy"})
    style.erase(key);
}

// Writes `route` to the edge: the sides as its ports, the corners as its waypoints (in the
// coordinates of the edge's parent).
void write_route(OpContext& ctx, const std::string& edge_id, const OrthogonalRoute& route) {
  const Cell* edge = ctx.page().find(edge_id);
  const auto [ox, oy] = child_origin(ctx.page(), edge->parent.value_or(""));
  ctx.edit.update(edge_id, [&, ox = ox, oy = oy](Cell& cell) {
    if (!cell.geometry) cell.geometry = Geometry{};
    cell.geometry->relative = true;
    if (route.corners.empty()) {
      cell.geometry->points.reset();
    } else {
      std::vector<Point> points;
      for (const PathPoint& p : route.corners) {
        Point point;
        point.x = std::round(p.x - ox);
        point.y = std::round(p.y - oy);
        points.push_back(std::move(point));
      }
      cell.geometry->points = std::move(points);
    }
    if (!cell.style) cell.style = Style{};
    erase_ports(*cell.style);
    for (const auto& [prefix, side] : {std::pair{"exit", route.exit}, {"entry", route.entry}}) {
      const PathPoint f = side_fraction(side);
      cell.style->set(std::string(prefix) + "X", format_number(f.x));
      cell.style->set(std::string(prefix) + "Y", format_number(f.y));
    }
    cell.style->set_trailing_semicolon(true);
  });
  ctx.edit.set_automatic_ports(edge_id, false);
}

// Drops the edge's waypoints and ports: draw.io routes it, fcp re-chooses its ports.
void make_automatic(OpContext& ctx, const std::string& edge_id) {
  ctx.edit.update(edge_id, [](Cell& cell) {
    if (cell.geometry) cell.geometry->points.reset();
    if (cell.style) erase_ports(*cell.style);
  });
  ctx.edit.set_automatic_ports(edge_id, true);
}

}  // namespace

std::unordered_set<std::string> edges_with_waypoints(const OpContext& ctx) {
  std::unordered_set<std::string> out;
  for (const Cell& cell : ctx.page().cells()) {
    if (ctx.index().kind(cell.id) == CellKind::edge && has_waypoints(cell)) out.insert(cell.id);
  }
  return out;
}

namespace {

// Edges that do not end at the moved shapes but whose drawn route now runs through one of them
// (the shape was put on the route): re-routed too, so the move does not leave them crossing it.
std::vector<std::string> edges_blocked_by(const OpContext& ctx,
                                          const std::vector<std::string>& shapes,
                                          const std::unordered_set<std::string>& incident) {
  std::vector<Rect> boxes;
  std::optional<Rect> reach;
  for (const auto& id : shapes) {
    if (ctx.index().kind(id) != CellKind::shape) continue;
    const Cell* cell = ctx.page().find(id);
    if (cell == nullptr || cell->is_text()) continue;
    const Rect r = absolute_rect(ctx.page(), *cell);
    if (r.width <= 0 || r.height <= 0) continue;
    boxes.push_back(r);
    reach = reach ? reach->united(r) : r;
  }
  std::vector<std::string> out;
  if (!reach) return out;
  for (const Cell& edge : ctx.page().cells()) {
    if (out.size() >= kMaxEdges) break;
    if (ctx.index().kind(edge.id) != CellKind::edge || incident.contains(edge.id) || !edge.source ||
        !edge.target || *edge.source == *edge.target || !orthogonal_edge(edge))
      continue;
    const Cell* source = ctx.page().find(*edge.source);
    const Cell* target = ctx.page().find(*edge.target);
    if (source == nullptr || target == nullptr) continue;
    const auto [ox, oy] = child_origin(ctx.page(), edge.parent.value_or(""));
    const Rect s = absolute_rect(ctx.page(), *source), t = absolute_rect(ctx.page(), *target);
    const std::vector<PathPoint> path = drawn_path(edge, s, t, {ox, oy});
    const Rect bounds = path_bounds(path);
    if (!bounds.overlaps(*reach)) continue;
    // A shape holding an end (a container shape) is crossed to reach it.
    const auto holds = [](const Rect& outer, const Rect& inner) {
      return outer.x <= inner.x && outer.y <= inner.y && outer.right() >= inner.right() &&
             outer.bottom() >= inner.bottom();
    };
    const bool blocked = std::any_of(boxes.begin(), boxes.end(), [&](const Rect& box) {
      return bounds.overlaps(box) && !holds(box, s) && !holds(box, t) && path_crosses(path, box);
    });
    if (blocked) out.push_back(edge.id);
  }
  return out;
}

// Lanes: a re-routed edge keeps kLaneGap px from every other edge's parallel runs, as layout's
// own routes do. A run that lies closer than that beside another edge over more than kMinOverlap
// px is moved sideways one lane at a time (its ports slide along their sides) to the nearest
// line clear of other edges and of shapes.
constexpr double kLaneGap = 10;     // px between parallel runs of two edges
constexpr double kMinOverlap = 10;  // px of common length that makes two runs one line
constexpr int kMaxLanes = 8;        // lanes tried on each side of a run
constexpr double kPortMargin = 4;   // px a slid port keeps from its side's corners
constexpr double kSamePoint = 0.5;  // px within which two coordinates of a path are the same

bool horizontal(const PathPoint& a, const PathPoint& b) {
  return std::abs(a.y - b.y) < 0.5;
}
bool vertical(const PathPoint& a, const PathPoint& b) {
  return std::abs(a.x - b.x) < 0.5;
}

// Whether runs a0-a1 and b0-b1 are parallel, closer than kLaneGap and side by side over more
// than kMinOverlap px.
bool co_run(const PathPoint& a0, const PathPoint& a1, const PathPoint& b0, const PathPoint& b1) {
  const bool ah = horizontal(a0, a1), bh = horizontal(b0, b1);
  const bool av = vertical(a0, a1), bv = vertical(b0, b1);
  if (ah && av) return false;  // a point
  if (!((ah && bh && !bv) || (av && bv && !bh))) return false;
  const double gap = ah ? std::abs(a0.y - b0.y) : std::abs(a0.x - b0.x);
  if (gap >= kLaneGap - 0.05) return false;
  const auto lo = [&](const PathPoint& p, const PathPoint& q) {
    return ah ? std::min(p.x, q.x) : std::min(p.y, q.y);
  };
  const auto hi = [&](const PathPoint& p, const PathPoint& q) {
    return ah ? std::max(p.x, q.x) : std::max(p.y, q.y);
  };
  return std::min(hi(a0, a1), hi(b0, b1)) - std::max(lo(a0, a1), lo(b0, b1)) > kMinOverlap;
}

// Runs of `path` that co-run with a run of one of `others` (segment index → count).
int co_runs_of(std::span<const PathPoint> path, std::size_t segment,
               const std::vector<std::vector<PathPoint>>& others) {
  int count = 0;
  for (const auto& other : others) {
    for (std::size_t j = 0; j + 1 < other.size(); ++j) {
      if (co_run(path[segment], path[segment + 1], other[j], other[j + 1])) ++count;
    }
  }
  return count;
}

int co_runs_of(std::span<const PathPoint> path, const std::vector<std::vector<PathPoint>>& others) {
  int count = 0;
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    count += co_runs_of(path, i, others);
  return count;
}

// Whether `p` may serve as a port on `box` for a run along the given axis: on the side the run
// leaves from, kPortMargin px clear of its corners.
bool port_fits(const PathPoint& p, const Rect& box, bool run_horizontal) {
  if (run_horizontal) {
    return (std::abs(p.x - box.x) < 0.5 || std::abs(p.x - box.right()) < 0.5) &&
           p.y >= box.y + kPortMargin && p.y <= box.bottom() - kPortMargin;
  }
  return (std::abs(p.y - box.y) < 0.5 || std::abs(p.y - box.bottom()) < 0.5) &&
         p.x >= box.x + kPortMargin && p.x <= box.right() - kPortMargin;
}

// A port on the box of the shape `end` for the run that reaches it from `from`: on a slanted or
// round outline (hexagon, parallelogram, rhombus, ellipse, cloud) moved on along the run to where
// it meets the outline, as draw.io ends it when the edge keeps the port there (exit/entry
// Perimeter=0); on a rectangle the port itself.
PathPoint onto_outline(const OpContext& ctx, const std::optional<std::string>& end, const Rect& box,
                       PathPoint port, PathPoint from) {
  namespace rd = render::detail;
  const Cell* shape = end ? ctx.page().find(*end) : nullptr;
  if (shape == nullptr || box.width <= 0 || box.height <= 0) return port;
  const rd::StyleView style(*shape, false);
  const rd::Perimeter perimeter = rd::perimeter_of(style);
  if (perimeter == rd::Perimeter::rectangle) return port;
  const rd::Terminal terminal{rd::Box{box.x, box.y, box.width, box.height}, perimeter, std::nullopt,
                              rd::perimeter_size(style, perimeter, box.width)};
  const rd::Vec on = rd::run_onto_outline(terminal, {port.x, port.y}, {from.x, from.y});
  return {on.x, on.y};
}

// Writes an absolute path (port, corners, port) to the edge as its ports and waypoints.
void write_path(OpContext& ctx, const std::string& edge_id, const std::vector<PathPoint>& path,
                const Rect& s, const Rect& t) {
  OrthogonalRoute route;
  route.corners.assign(path.begin() + 1, path.end() - 1);
  write_route(ctx, edge_id, route);
  const auto fraction = [](double v, double from, double size) {
    return size > 0 ? std::round((v - from) / size * 10000) / 10000 : 0.5;
  };
  const Cell* edge = ctx.page().find(edge_id);
  const std::array<std::pair<const char*, PathPoint>, 2> ends{
      std::pair{"exit", onto_outline(ctx, edge->source, s, path[0], path[1])},
      std::pair{"entry", onto_outline(ctx, edge->target, t, path.back(), path[path.size() - 2])}};
  const std::array<Rect, 2> boxes{s, t};
  const std::array<PathPoint, 2> ports{path.front(), path.back()};
  ctx.edit.update(edge_id, [&](Cell& cell) {
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string prefix = ends[k].first;
      const PathPoint& p = ends[k].second;
      const Rect& box = boxes[k];
      cell.style->set(prefix + "X", format_number(fraction(p.x, box.x, box.width)));
      cell.style->set(prefix + "Y", format_number(fraction(p.y, box.y, box.height)));
      // A port moved onto a slanted or round outline stays where it is written.
      if (p == ports[k])
        cell.style->erase(prefix + "Perimeter");
      else
        cell.style->set(prefix + "Perimeter", "0");
    }
  });
}

// The drawn path of every orthogonal edge on the page, by id.
std::vector<std::pair<std::string, std::vector<PathPoint>>> drawn_paths(const OpContext& ctx) {
  std::vector<std::pair<std::string, std::vector<PathPoint>>> out;
  for (const Cell& edge : ctx.page().cells()) {
    if (ctx.index().kind(edge.id) != CellKind::edge || !edge.source || !edge.target) continue;
    const Cell* source = ctx.page().find(*edge.source);
    const Cell* target = ctx.page().find(*edge.target);
    if (source == nullptr || target == nullptr) continue;
    const auto [ox, oy] = child_origin(ctx.page(), edge.parent.value_or(""));
    out.emplace_back(edge.id, drawn_path(edge, absolute_rect(ctx.page(), *source),
                                         absolute_rect(ctx.page(), *target), {ox, oy}));
  }
  return out;
}

}  // namespace

void separate_lanes(OpContext& ctx, const std::vector<std::string>& edges) {
  auto paths = drawn_paths(ctx);
  for (const auto& edge_id : edges) {
    const Cell* edge = ctx.page().find(edge_id);
    if (edge == nullptr || !edge->source || !edge->target || *edge->source == *edge->target ||
        !orthogonal_edge(*edge))
      continue;
    const Cell* source = ctx.page().find(*edge->source);
    const Cell* target = ctx.page().find(*edge->target);
    if (source == nullptr || target == nullptr) continue;
    const auto mine = std::find_if(paths.begin(), paths.end(),
                                   [&](const auto& entry) { return entry.first == edge_id; });
    if (mine == paths.end()) continue;
    // Only edges within the lanes this one may move to can lie beside it.
    const Rect own = path_bounds(mine->second);
    const double reach = kMaxLanes * kLaneGap;
    const Rect near{own.x - reach, own.y - reach, own.width + 2 * reach, own.height + 2 * reach};
    std::vector<std::vector<PathPoint>> others;
    for (const auto& entry : paths) {
      if (entry.first != edge_id && path_bounds(entry.second).overlaps(near))
        others.push_back(entry.second);
    }
    std::vector<PathPoint> path = simplified(mine->second, kSamePoint);
    if (path.size() < 2 || co_runs_of(path, others) == 0) continue;
    const Rect s = absolute_rect(ctx.page(), *source), t = absolute_rect(ctx.page(), *target);
    const auto obstacles = obstacles_near(ctx, s.united(t), source->id, target->id);
    const auto crossings = [&](std::span<const PathPoint> p) {
      return std::count_if(obstacles.begin(), obstacles.end(),
                           [&](const Rect& r) { return path_crosses(p, r); }) +
             (path_crosses(p, s) ? 1 : 0) + (path_crosses(p, t) ? 1 : 0);
    };
    const bool ports_fixed = ctx.doc.state().user_ports.contains(edge_id);
    bool changed = false;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      if (co_runs_of(path, i, others) == 0) continue;
      const bool along_x = horizontal(path[i], path[i + 1]);
      if (!along_x && !vertical(path[i], path[i + 1])) continue;
      const bool first = i == 0, last = i + 2 == path.size();
      if (ports_fixed && (first || last)) continue;
      std::optional<std::vector<PathPoint>> best;
      for (int lane = 1; lane <= kMaxLanes && !best; ++lane) {
        for (const int sign : {1, -1}) {
          std::vector<PathPoint> moved = path;
          const double shift = sign * lane * kLaneGap;
          for (const std::size_t k : {i, i + 1}) {
            (along_x ? moved[k].y : moved[k].x) += shift;
          }
          if (first && !port_fits(moved.front(), s, along_x)) continue;
          if (last && !port_fits(moved.back(), t, along_x)) continue;
          // Clear of shapes, or (a route with no way round) through no more of them.
          if (crossings(moved) > crossings(path)) continue;
          if (co_runs_of(moved, others) >= co_runs_of(path, others)) continue;
          best = std::move(moved);
          break;
        }
      }
      if (!best) continue;
      path = std::move(*best);
      changed = true;
    }
    if (!changed) continue;
    write_path(ctx, edge_id, path, s, t);
    mine->second = path;
  }
}
std::string reroute_edges(OpContext& ctx, const std::vector<std::string>& moved,
                          const std::unordered_set<std::string>& routed_before,
                          const std::string& name) {
  std::vector<std::string> edges;
  std::unordered_set<std::string> seen;
  for (const auto& id : with_members(ctx, moved)) {
    for (const auto& edge_id : ctx.index().incident_edges(id)) {
      if (seen.insert(edge_id).second) edges.push_back(edge_id);
    }
  }
  if (edges.size() > kMaxEdges) edges.resize(kMaxEdges);
  const std::size_t own = edges.size();
  for (auto& id : edges_blocked_by(ctx, with_members(ctx, moved), seen))
    edges.push_back(std::move(id));
  std::size_t rerouted_own = 0, rerouted_round = 0;
  std::vector<std::string> named;  // the re-routed edges, "Src->Tgt", for the reply
  std::vector<std::string> ends;   // of edges whose ports fcp chooses again
  std::vector<std::string> laid;   // edges given a new route
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const std::string& edge_id = edges[i];
    std::size_t& rerouted = i < own ? rerouted_own : rerouted_round;
    const Cell* edge = ctx.page().find(edge_id);
    if (edge == nullptr || !edge->source || !edge->target || *edge->source == *edge->target ||
        !orthogonal_edge(*edge))
      continue;
    const bool routed = routed_before.contains(edge_id) || has_waypoints(*edge);
    const bool automatic = ctx.doc.has_automatic_ports(edge_id);
    const Cell* source = ctx.page().find(*edge->source);
    const Cell* target = ctx.page().find(*edge->target);
    if (source == nullptr || target == nullptr) continue;
    const Rect s = absolute_rect(ctx.page(), *source), t = absolute_rect(ctx.page(), *target);
    const auto [ox, oy] = child_origin(ctx.page(), edge->parent.value_or(""));
    const PathPoint origin{ox, oy};
    const auto obstacles = obstacles_near(ctx, s.united(t), source->id, target->id);
    // A route may touch its own ends only at their ports, never run through them.
    const auto clear = [&](std::span<const PathPoint> path) {
      return !crosses_any(path, obstacles) && !path_crosses(path, s) && !path_crosses(path, t);
    };
    const bool user_set = ctx.doc.state().user_ports.contains(edge_id);
    if (user_set || (!routed && !automatic)) {
      // Ports set in this session stay; the route is laid anew from them. Ports the file or a
      // layout gave an edge without waypoints stay too: draw.io routes between them while that
      // runs through no shape, else the route is laid from them round the shapes.
      if (!user_set && clear(drawn_path(*edge, s, t, origin))) continue;
      route_edge_around_shapes(ctx, edge_id);
      laid.push_back(edge_id);
      ++rerouted;
      named.push_back(display_name(ctx.doc, source->id) + "->" + display_name(ctx.doc, target->id));
      continue;
    }
    // draw.io's own route between the sides facing each other, when it runs through nothing.
    Cell plain = *edge;
    if (plain.geometry) plain.geometry->points.reset();
    if (plain.style && routed) erase_ports(*plain.style);
    if (clear(drawn_path(plain, s, t, origin))) {
      if (!routed) continue;  // automatic and clear: nothing to change
      make_automatic(ctx, edge_id);
      ends.push_back(source->id);
      ends.push_back(target->id);
      laid.push_back(edge_id);
      ++rerouted;
      named.push_back(display_name(ctx.doc, source->id) + "->" + display_name(ctx.doc, target->id));
      continue;
    }
    if (auto route = route_around(s, t, obstacles)) {
      write_route(ctx, edge_id, *route);
      if (!clear(drawn_path(*ctx.page().find(edge_id), s, t, origin))) {
        // That route runs through an end: the router that keeps clear of the ends lays it from
        // the sides facing each other.
        ctx.edit.update(edge_id, [](Cell& cell) {
          if (cell.style) erase_ports(*cell.style);
        });
        route_edge_around_shapes(ctx, edge_id);
      }
      laid.push_back(edge_id);
      ++rerouted;
      named.push_back(display_name(ctx.doc, source->id) + "->" + display_name(ctx.doc, target->id));
    } else if (routed) {
      // No way round within reach: stale waypoints go; the `?` warning names what it crosses.
      make_automatic(ctx, edge_id);
      ends.push_back(source->id);
      ends.push_back(target->id);
      laid.push_back(edge_id);
      ++rerouted;
      named.push_back(display_name(ctx.doc, source->id) + "->" + display_name(ctx.doc, target->id));
    }
  }
  for (const auto& id : ends)
    refresh_ports(ctx, id);
  separate_lanes(ctx, laid);
  if (rerouted_own == 0 && rerouted_round == 0) return {};
  // Which edges, the first few by name: the reply says what changed beyond what the op named.
  constexpr std::size_t kNamed = 3;
  std::string which;
  for (std::size_t i = 0; i < named.size() && i < kNamed; ++i)
    which += (i == 0 ? "" : ", ") + named[i];
  if (named.size() > kNamed) which += " and " + std::to_string(named.size() - kNamed) + " more";
  std::string line = "re-routed ";
  if (rerouted_own > 0) line += core::plural(rerouted_own, "edge") + " of " + name;
  if (rerouted_own > 0 && rerouted_round > 0) line += " and ";
  if (rerouted_round > 0)
    line += core::plural(rerouted_round, "edge") + " round " + (rerouted_own > 0 ? "it" : name) +
            " (it lay on their routes)";
  return core::connection_changed(line + ": " + which);
}

}  // namespace fcp::drawio
