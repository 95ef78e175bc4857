#include "domains/drawio/layout/channels.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

#include "domains/drawio/layout/edge_labels.hpp"

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kAlong = 0.5;
// px left between two shapes of one row that a nudge brings closer: room for one lane,
// kShapeClearance off each (tier_order's packed gap).
constexpr double kMinGap =
    3 * kShapeClearance;  // px: a run shorter than this, or off its line by more, is none

struct Span {
  double lo = 0, hi = 0;
};

// The top-level cluster (tier) holding node n, or -1.
int tier_of(const IndexedGraph& graph, size_t n) {
  int c = graph.node_cluster[n];
  while (c >= 0 && graph.cluster_parent[static_cast<size_t>(c)] >= 0)
    c = graph.cluster_parent[static_cast<size_t>(c)];
  return c;
}

// A shape closer than kChannel to a run of a route across a tier holding neither end: the run's
// line across the rank axis, the side of it the shape is on (+1: beyond it), and what is missing.
struct Pinch {
  size_t node = 0;
  double line = 0;
  int side = 1;
  double missing = 0;
};

void for_each_pinch(const Drawing& drawing, const IndexedGraph& graph,
                    const std::vector<EdgeRoute>& routes, const std::function<void(Pinch)>& visit) {
  const bool vertical = drawing.vertical_ranks;  // ranks along y: runs along y pass shapes in x
  const auto cross = [vertical](const Box& b) {
    return vertical ? Span{b.x, b.right()} : Span{b.y, b.bottom()};
  };
  const auto along = [vertical](const Box& b) {
    return vertical ? Span{b.y, b.bottom()} : Span{b.x, b.right()};
  };
  for (size_t e = 0; e < routes.size() && e < graph.edges.size(); ++e) {
    const IndexedGraph::Edge& edge = graph.edges[e];
    if (edge.source == edge.target) continue;
    const auto s = static_cast<size_t>(edge.source), t = static_cast<size_t>(edge.target);
    const int own_s = tier_of(graph, s), own_t = tier_of(graph, t);
    const std::vector<Point2> path = path_of(drawing.nodes[s], drawing.nodes[t], routes[e]);
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      const Point2 a = path[k], b = path[k + 1];
      const double a_cross = vertical ? a.x : a.y, b_cross = vertical ? b.x : b.y;
      const double a_along = vertical ? a.y : a.x, b_along = vertical ? b.y : b.x;
      if (std::abs(a_cross - b_cross) > kAlong || std::abs(a_along - b_along) < kAlong) continue;
      const Span run{std::min(a_along, b_along), std::max(a_along, b_along)};
      for (size_t n = 0; n < drawing.nodes.size(); ++n) {
        if (n == s || n == t) continue;
        const int tier = tier_of(graph, n);
        if (tier < 0 || tier == own_s || tier == own_t) continue;
        const Span on = along(drawing.nodes[n]);
        if (on.hi <= run.lo || on.lo >= run.hi) continue;
        const Span off = cross(drawing.nodes[n]);
        Pinch pinch{n, a_cross, 1, 0};
        if (off.lo >= a_cross) {
          pinch.missing = kChannel - (off.lo - a_cross);
        } else if (off.hi <= a_cross) {
          pinch.side = -1;
          pinch.missing = kChannel - (a_cross - off.hi);
        }
        if (pinch.missing > kChannelSlack) visit(pinch);
      }
    }
  }
}

}  // namespace

double channel_shortfall(const Drawing& drawing, const IndexedGraph& graph,
                         const std::vector<EdgeRoute>& routes) {
  double sum = 0;
  for_each_pinch(drawing, graph, routes, [&sum](const Pinch& pinch) { sum += pinch.missing; });
  return sum;
}

bool open_channels(Drawing& drawing, const IndexedGraph& graph,
                   const std::vector<EdgeRoute>& routes, bool across) {
  if (drawing.node_row.size() != drawing.nodes.size()) return false;
  std::vector<Pinch> pinches;
  for_each_pinch(drawing, graph, routes,
                 [&pinches](const Pinch& pinch) { pinches.push_back(pinch); });
  // The most missing first: a shape pinched by two runs moves for the worse one.
  std::sort(pinches.begin(), pinches.end(),
            [](const Pinch& a, const Pinch& b) { return a.missing > b.missing; });
  const bool vertical = drawing.vertical_ranks;
  const auto lo = [vertical](const Box& b) { return vertical ? b.x : b.y; };
  const auto hi = [vertical](const Box& b) { return vertical ? b.right() : b.bottom(); };
  bool moved = false;
  for (const Pinch& pinch : pinches) {
    const Box& node = drawing.nodes[pinch.node];
    // Still pinched (an earlier move may have opened it).
    const double gap = pinch.side > 0 ? lo(node) - pinch.line : pinch.line - hi(node);
    if (gap < 0) continue;  // moved across the line by an earlier nudge
    const double missing = std::ceil(kChannel - gap);
    if (missing <= 0) continue;
    const int tier = tier_of(graph, pinch.node);
    const int row = drawing.node_row[pinch.node];
    if (tier < 0 || row < 0 || drawing.moved[pinch.node]) continue;
    // The tier's content across the rank axis, and the shapes of this row and tier on either
    // side of the run.
    double content_lo = lo(node), content_hi = hi(node);
    std::vector<size_t> beyond, before;  // on the shape's side of the run, on the other
    bool any_moved = false;
    for (size_t n = 0; n < drawing.nodes.size(); ++n) {
      if (tier_of(graph, n) != tier) continue;
      const Box& other = drawing.nodes[n];
      content_lo = std::min(content_lo, lo(other));
      content_hi = std::max(content_hi, hi(other));
      if (drawing.node_row[n] != row) continue;
      if (lo(other) >= pinch.line) {
        (pinch.side > 0 ? beyond : before).push_back(n);
      } else if (hi(other) <= pinch.line) {
        (pinch.side > 0 ? before : beyond).push_back(n);
      } else {
        continue;
      }
      any_moved = any_moved || drawing.moved[n];
    }
    if (any_moved) continue;
    // The shapes of `group` nearest the run first (toward `side`), and the slack of each: how
    // far it may move toward `side` before the next one must too (gaps close to kMinGap), the
    // last one's up to the content's end.
    const auto in_order = [&](std::vector<size_t> group, int side) {
      std::sort(group.begin(), group.end(), [&](size_t a, size_t b) {
        return side > 0 ? lo(drawing.nodes[a]) < lo(drawing.nodes[b])
                        : hi(drawing.nodes[a]) > hi(drawing.nodes[b]);
      });
      std::vector<std::pair<size_t, double>> out;
      for (size_t k = 0; k < group.size(); ++k) {
        const Box& here = drawing.nodes[group[k]];
        double slack = side > 0 ? content_hi - hi(here) : lo(here) - content_lo;
        if (k + 1 < group.size()) {
          const Box& next = drawing.nodes[group[k + 1]];
          slack = std::max(0.0, (side > 0 ? lo(next) - hi(here) : lo(here) - hi(next)) - kMinGap);
        }
        out.emplace_back(group[k], slack);
      }
      return out;
    };
    // How far the nearest shape of `group` can move toward `side` inside the content.
    // None where a shape of `group` alone makes the content's end behind it: the tier's box
    // would shrink there, off the line the tiers share (align_tiers).
    const auto room_for = [&](const std::vector<size_t>& group, int side) {
      const double behind = side > 0 ? content_lo : content_hi;
      const auto at_end = [&](size_t n) {
        return std::abs((side > 0 ? lo(drawing.nodes[n]) : hi(drawing.nodes[n])) - behind) < kAlong;
      };
      if (std::any_of(group.begin(), group.end(), at_end)) {
        bool held = false;  // another shape of the tier keeps that end
        for (size_t n = 0; n < drawing.nodes.size() && !held; ++n)
          held = tier_of(graph, n) == tier &&
                 std::find(group.begin(), group.end(), n) == group.end() && at_end(n);
        if (!held) return 0.0;
      }
      double room = 0;
      for (const auto& [n, slack] : in_order(group, side))
        room += slack;
      return room;
    };
    // Moves the nearest shape of `group` by up to `wanted` (whole px) toward `side`, the others
    // as far as keeps them kMinGap from it; returns how far.
    const auto push = [&](const std::vector<size_t>& group, int side, double wanted) {
      const double by = std::floor(std::min(wanted, room_for(group, side)));
      if (group.empty() || by < 1) return 0.0;
      double move = by;
      for (const auto& [n, slack] : in_order(group, side)) {
        (vertical ? drawing.nodes[n].x : drawing.nodes[n].y) += side * move;
        move = std::max(0.0, move - std::floor(slack));
      }
      return by;
    };
    // The shape moves away from the run. What its side has no room for, either the shapes on
    // the other side make (the gap is as wide as the channel needs, the route's corridor moves
    // into it), or, `across`, the shape goes over to the other side of the run, kChannel off it,
    // with the shapes of its row and tier there (the run keeps its line).
    const bool nearest = std::none_of(beyond.begin(), beyond.end(), [&](size_t n) {
      return n != pinch.node &&
             (pinch.side > 0 ? lo(drawing.nodes[n]) < lo(node) : hi(drawing.nodes[n]) > hi(node));
    });
    if (room_for(beyond, pinch.side) >= missing || !across || !nearest) {
      const double away = push(beyond, pinch.side, missing);
      const double rest = push(before, -pinch.side, missing - away);
      if (away + rest < 1) continue;
    } else {
      std::vector<size_t> over{pinch.node};
      over.insert(over.end(), before.begin(), before.end());
      const double jump = std::ceil(pinch.side > 0 ? hi(node) - pinch.line + kChannel
                                                   : pinch.line + kChannel - lo(node));
      if (room_for(over, -pinch.side) < jump) continue;
      push(over, -pinch.side, jump);
    }
    moved = true;
  }
  if (moved) drawing.curves_from_engine = false;
  return moved;
}

int route_bends(const Drawing& drawing, const IndexedGraph& graph,
                const std::vector<EdgeRoute>& routes) {
  int bends = 0;
  for (size_t e = 0; e < routes.size() && e < graph.edges.size(); ++e) {
    const IndexedGraph::Edge& edge = graph.edges[e];
    if (edge.source == edge.target) continue;
    const std::vector<Point2> path =
        path_of(drawing.nodes[static_cast<size_t>(edge.source)],
                drawing.nodes[static_cast<size_t>(edge.target)], routes[e]);
    for (size_t k = 1; k + 1 < path.size(); ++k) {
      const Point2 a = path[k - 1], b = path[k], c = path[k + 1];
      if (std::abs((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)) > kAlong) ++bends;
    }
  }
  return bends;
}

void keep_channels(Drawing& drawing, const IndexedGraph& graph, std::vector<EdgeRoute>& routes,
                   const std::function<std::vector<EdgeRoute>(Drawing&)>& finish) {
  double shortfall = channel_shortfall(drawing, graph, routes);
  for (int round = 0; round < 2 && shortfall > 0; ++round) {
    const RouteFigures before = measure_routes(drawing, graph, routes);
    const int bends = route_bends(drawing, graph, routes);
    std::optional<std::pair<Drawing, std::vector<EdgeRoute>>> best;
    for (const int variant : {0, 1, 2}) {  // corridors only, shapes apart, a shape across
      Drawing nudged = drawing;
      nudged.channels = true;
      if (variant > 0 && !open_channels(nudged, graph, routes, variant == 2)) continue;
      std::vector<EdgeRoute> nudged_routes = finish(nudged);
      const double now = channel_shortfall(nudged, graph, nudged_routes);
      const RouteFigures after = measure_routes(nudged, graph, nudged_routes);
      if (now >= shortfall || after.one_line > before.one_line ||
          after.crossings > before.crossings || after.near_shapes > before.near_shapes ||
          route_bends(nudged, graph, nudged_routes) > bends)
        continue;
      shortfall = now;
      best.emplace(std::move(nudged), std::move(nudged_routes));
    }
    if (!best) break;
    drawing = std::move(best->first);
    routes = std::move(best->second);
  }
}

}  // namespace fcp::drawio::layout::detail
