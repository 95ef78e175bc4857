// Re-routing after a hand move or resize: the edges of what moved lose waypoints that no longer
// fit and get a route that runs through no shape (draw.io's own when that is clear, else one
// round the shapes in the way, written as ports and waypoints); other edges whose route the moved
// shapes now lie on are laid round them the same way.
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_set>

#include "domains/drawio/edge_paths.hpp"
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

}  // namespace

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
  std::vector<std::string> ends;  // of edges whose ports fcp chooses again
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
      ++rerouted;
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
      ++rerouted;
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
      ++rerouted;
    } else if (routed) {
      // No way round within reach: stale waypoints go; the `?` warning names what it crosses.
      make_automatic(ctx, edge_id);
      ends.push_back(source->id);
      ends.push_back(target->id);
      ++rerouted;
    }
  }
  for (const auto& id : ends)
    refresh_ports(ctx, id);
  if (rerouted_own == 0 && rerouted_round == 0) return {};
  std::string line = "re-routed ";
  if (rerouted_own > 0) line += core::plural(rerouted_own, "edge") + " of " + name;
  if (rerouted_own > 0 && rerouted_round > 0) line += " and ";
  if (rerouted_round > 0)
    line += core::plural(rerouted_round, "edge") + " round " + (rerouted_own > 0 ? "it" : name) +
            " (it lay on their routes)";
  return core::connection_changed(line);
}

}  // namespace fcp::drawio
