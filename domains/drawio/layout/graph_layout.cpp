#include "domains/drawio/layout/graph_layout.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numbers>

#include "domains/drawio/layout/channels.hpp"
#include "domains/drawio/layout/corridors.hpp"
#include "domains/drawio/layout/drawing.hpp"
#include "domains/drawio/layout/edge_labels.hpp"
#include "domains/drawio/layout/edge_routes.hpp"
#include "domains/drawio/layout/graphviz_engine.hpp"
#include "domains/drawio/layout/separation.hpp"
#include "domains/drawio/layout/tier_order.hpp"
#include "domains/drawio/layout/tree_placement.hpp"

namespace fcp::drawio::layout {
namespace {

using detail::Box;
using detail::Drawing;
using detail::IndexedGraph;
using detail::Row;
using detail::RowCrossing;

constexpr double kPinTolerance = 0.5;  // px a pinned node may be off before it counts as moved
// Up to this many edges a layered layout with groups is also tried with each group's shapes
// ordered by use, four times (each tier in its place, then the tiers free; with the engine's
// gaps, then with a column longer than its neighbours' packed into their band), and routed each
// time: five routings instead of one (the 200-shape test diagram, ~300 edges: its layout test
// 0.96 -> 1.3 s with two orders, about 1.6 s with four; the 1 000-shape benchmark, 1 782 edges,
// is not ordered).
constexpr size_t kOrderEdgesUpTo = 1000;
// The tails of a column longer than its neighbours' band slid up are tried with up to this many
// shapes: one routing each.
constexpr size_t kTailsUpTo = 4;

// Room for ports (graph_layout.hpp): a side of kGrowPorts ends or more that cannot hold them
// kPortGap apart (the router's least gap between ports), with as much from each corner, grows to
// hold them so, at most kGrowAspect times the box's other side. Measured on the ride-hailing
// diagram at default sizes: growing sides of 4 or 5 ends as well (Trip's 5) took the judges'
// script (Kafka sized by the user) from 17 to 19-21 crossings; growing to a lane's room (20 px a
// port) instead of the router's gap left the default-size script at 25 crossings, 69 bends.
constexpr double kPortGap = 15;
constexpr size_t kGrowPorts = 6;
constexpr double kGrowAspect = 3;

// The request with the boxes that may grow longer along a side too short for its ends' ports,
// or nullopt when none needs to. `grown_for`: per node, the ends of the side it grew for, or 0.
std::optional<LayoutRequest> room_for_ports(const LayoutRequest& request, const Drawing& drawing,
                                            const IndexedGraph& graph,
                                            std::vector<size_t>& grown_for) {
  if (drawing.node_row.size() != drawing.nodes.size()) return std::nullopt;
  // Ends per node on its low side and its high side along the rank axis.
  std::vector<std::array<size_t, 2>> ends(request.nodes.size(), {0, 0});
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const auto source = static_cast<size_t>(edge.source), target = static_cast<size_t>(edge.target);
    const int a = drawing.node_row[source], b = drawing.node_row[target];
    if (a < 0 || b < 0 || a == b) continue;
    ++ends[source][b > a ? 1 : 0];
    ++ends[target][a > b ? 1 : 0];
  }
  std::optional<LayoutRequest> grown;
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    const LayoutNode& node = request.nodes[i];
    if (!node.may_grow || node.pinned) continue;
    const size_t most = std::max(ends[i][0], ends[i][1]);
    if (most < kGrowPorts) continue;
    const double side = drawing.vertical_ranks ? node.width : node.height;
    const double other = drawing.vertical_ranks ? node.height : node.width;
    if (static_cast<double>(most + 1) * kPortGap <= side) continue;
    const double needed = std::min(std::ceil(static_cast<double>(most + 1) * kPortGap / 10) * 10,
                                   std::floor(kGrowAspect * other / 10) * 10);
    if (needed <= side + 0.5) continue;
    if (!grown) grown = request;
    grown_for.resize(request.nodes.size());
    grown_for[i] = most;
    (drawing.vertical_ranks ? grown->nodes[i].width : grown->nodes[i].height) = needed;
  }
  return grown;
}

core::Result<Drawing> place(const LayoutRequest& request, const IndexedGraph& graph,
                            bool any_pinned) {
  switch (request.algorithm) {
    case Algorithm::layered:
      return detail::run_graphviz(request, graph, {});
    case Algorithm::tree:
      if (request.clusters.empty()) {
        if (std::optional<Drawing> tree = detail::place_tree(request, graph)) return *tree;
      }
      return detail::run_graphviz(request, graph, {.keep_child_order = true});
    case Algorithm::force:
      // neato (stress majorisation) is deterministic and holds pinned nodes itself but knows no
      // clusters; fdp handles clusters, but not pins inside them, and orders its internal graph
      // by pointer comparisons, so its drawings may vary from run to run.
      if (request.clusters.empty()) {
        return detail::run_graphviz(request, graph,
                                    {.engine = detail::Engine::neato, .pin_nodes = any_pinned});
      }
      return detail::run_graphviz(request, graph, {.engine = detail::Engine::fdp});
  }
  return core::make_error("Layout: unknown algorithm");
}

// Turns a force drawing about its centroid so that edges point along `direction` on average.
void orient(Drawing& drawing, const IndexedGraph& graph, Direction direction) {
  double mx = 0, my = 0;
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const Box& s = drawing.nodes[static_cast<size_t>(edge.source)];
    const Box& t = drawing.nodes[static_cast<size_t>(edge.target)];
    mx += t.cx() - s.cx();
    my += t.cy() - s.cy();
  }
  if (std::hypot(mx, my) < 1e-6) return;
  static constexpr std::array<double, 4> kWanted = {std::numbers::pi / 2, 0, -std::numbers::pi / 2,
                                                    std::numbers::pi};  // TB, LR, BT, RL (y down)
  const double turn = kWanted[static_cast<size_t>(direction)] - std::atan2(my, mx);
  double ox = 0, oy = 0;
  for (const Box& box : drawing.nodes) {
    ox += box.cx();
    oy += box.cy();
  }
  ox /= static_cast<double>(drawing.nodes.size());
  oy /= static_cast<double>(drawing.nodes.size());
  const double c = std::cos(turn), s = std::sin(turn);
  for (Box& box : drawing.nodes) {
    const double dx = box.cx() - ox, dy = box.cy() - oy;
    box.x = ox + c * dx - s * dy - box.w / 2;
    box.y = oy + s * dx + c * dy - box.h / 2;
  }
}

// Lines up the top-level clusters (tiers) of a layered drawing across the rank axis: with ranks
// left to right every tier's top at the same y, with ranks top to bottom every tier's left at the
// same x, so the tiers read as columns (rows) instead of a staircase. Each tier moves whole (its
// nodes, clusters and the places where edges cross its rows). Nothing moves when a rank row
// holds nodes of two tiers or of none, or when the moved tiers would overlap each other or a
// node outside every cluster.
void align_tiers(Drawing& drawing, const LayoutRequest& request, const IndexedGraph& graph) {
  if (drawing.rows.empty() || drawing.node_row.size() != drawing.nodes.size()) return;
  std::vector<int> top(request.clusters.size(), -1);  // outermost cluster of each cluster
  for (int c : graph.clusters_parents_first) {
    const int parent = graph.cluster_parent[static_cast<size_t>(c)];
    top[static_cast<size_t>(c)] = parent < 0 ? c : top[static_cast<size_t>(parent)];
  }
  std::vector<int> tiers;
  for (size_t c = 0; c < request.clusters.size(); ++c) {
    if (graph.cluster_parent[c] >= 0) continue;
    if (!drawing.clusters[c]) return;
    tiers.push_back(static_cast<int>(c));
  }
  if (tiers.size() < 2) return;
  auto tier_of_node = [&](size_t node) {
    const int cluster = graph.node_cluster[node];
    return cluster < 0 ? -1 : top[static_cast<size_t>(cluster)];
  };
  std::vector<int> row_tier(drawing.rows.size(), -2);
  for (size_t r = 0; r < drawing.rows.size(); ++r) {
    for (int node : drawing.rows[r].nodes) {
      const int tier = tier_of_node(static_cast<size_t>(node));
      if (tier < 0 || (row_tier[r] != -2 && row_tier[r] != tier)) return;
      row_tier[r] = tier;
    }
  }
  const bool across_x = drawing.vertical_ranks;  // ranks along y: tiers share their left x
  auto start = [across_x](const Box& box) { return across_x ? box.x : box.y; };
  double line = start(*drawing.clusters[static_cast<size_t>(tiers.front())]);
  for (int tier : tiers)
    line = std::min(line, start(*drawing.clusters[static_cast<size_t>(tier)]));
  std::vector<double> shift(request.clusters.size(), 0);
  bool any = false;
  for (int tier : tiers) {
    shift[static_cast<size_t>(tier)] = line - start(*drawing.clusters[static_cast<size_t>(tier)]);
    any = any || std::abs(shift[static_cast<size_t>(tier)]) > 0.5;
  }
  if (!any) return;
  auto moved = [&](const Box& box, double by) {
    Box out = box;
    (across_x ? out.x : out.y) += by;
    return out;
  };
  std::vector<Box> boxes;  // the tiers where they would go, then the nodes outside every tier
  for (int tier : tiers)
    boxes.push_back(
        moved(*drawing.clusters[static_cast<size_t>(tier)], shift[static_cast<size_t>(tier)]));
  for (size_t n = 0; n < drawing.nodes.size(); ++n) {
    if (graph.node_cluster[n] < 0) boxes.push_back(drawing.nodes[n]);
  }
  for (size_t a = 0; a < tiers.size(); ++a) {
    for (size_t b = a + 1; b < boxes.size(); ++b) {
      const Box& p = boxes[a];
      const Box& q = boxes[b];
      if (p.x < q.right() && q.x < p.right() && p.y < q.bottom() && q.y < p.bottom()) return;
    }
  }
  for (size_t n = 0; n < drawing.nodes.size(); ++n) {
    const int tier = tier_of_node(n);
    if (tier >= 0) drawing.nodes[n] = moved(drawing.nodes[n], shift[static_cast<size_t>(tier)]);
  }
  for (size_t c = 0; c < request.clusters.size(); ++c) {
    if (drawing.clusters[c])
      drawing.clusters[c] = moved(*drawing.clusters[c], shift[static_cast<size_t>(top[c])]);
  }
  for (auto& crossings : drawing.crossings) {
    for (RowCrossing& crossing : crossings) {
      const int tier = row_tier[static_cast<size_t>(crossing.row)];
      if (tier >= 0) crossing.cross += shift[static_cast<size_t>(tier)];
    }
  }
  // dot's splines no longer fit the moved tiers: spline routes are drawn from the corners.
  drawing.curves_from_engine = false;
}

// The box round cluster i's own nodes and the boxes `child_boxes` gives its child clusters;
// nullopt when it holds neither.
std::optional<Box> cluster_content(const Drawing& drawing, const IndexedGraph& graph, size_t i,
                                   const std::vector<std::optional<Box>>& child_boxes) {
  std::optional<Box> content;
  auto add = [&content](const Box& box) { content = content ? detail::unite(*content, box) : box; };
  for (int node : graph.cluster_nodes[i])
    add(drawing.nodes[static_cast<size_t>(node)]);
  for (int child : graph.cluster_children[i]) {
    if (child_boxes[static_cast<size_t>(child)]) add(*child_boxes[static_cast<size_t>(child)]);
  }
  return content;
}

// The cluster boxes as the caller draws them: round their contents with the paddings of the
// request only (the engine's boxes may hold more room), for labels to keep off their borders.
std::vector<std::optional<Box>> drawn_clusters(const Drawing& drawing, const LayoutRequest& request,
                                               const IndexedGraph& graph) {
  const double pad = request.cluster_padding;
  const double bottom = request.cluster_padding_bottom < 0 ? pad : request.cluster_padding_bottom;
  std::vector<std::optional<Box>> boxes(request.clusters.size());
  for (auto it = graph.clusters_parents_first.rbegin(); it != graph.clusters_parents_first.rend();
       ++it) {
    const auto i = static_cast<size_t>(*it);
    const std::optional<Box> content = cluster_content(drawing, graph, i, boxes);
    if (!content) {
      boxes[i] = drawing.clusters[i];
      continue;
    }
    const double header = request.clusters[i].label.empty() ? 0 : request.cluster_header;
    boxes[i] = detail::inflate(*content, pad, pad + header, pad, bottom);
  }
  return boxes;
}

// The boxes of the clusters' titles in `frames` (drawn_clusters): detail::kTitleHeight px from
// the top, about 7 px a character plus 8 wide, centred; none for a cluster without a label.
std::vector<std::optional<Box>> cluster_titles(const std::vector<std::optional<Box>>& frames,
                                               const LayoutRequest& request) {
  std::vector<std::optional<Box>> titles(frames.size());
  for (size_t i = 0; i < frames.size() && i < request.clusters.size(); ++i) {
    const std::string& label = request.clusters[i].label;
    if (!frames[i] || label.empty()) continue;
    // Characters, not bytes: the UTF-8 bytes that start one.
    const auto characters = std::count_if(label.begin(), label.end(), [](char c) {
      return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    });
    const double width = std::min(frames[i]->w, 7 * static_cast<double>(characters) + 8);
    titles[i] = Box{frames[i]->cx() - width / 2, frames[i]->y, width, detail::kTitleHeight};
  }
  return titles;
}

// Keeps top-level clusters (tiers) at least `gap` apart where they stand next to each other,
// along the rank axis (one tier after the other) or across it (two groups of one column): the
// engine leaves clusters only a few points apart, no room for the edges that run between them.
// Measured on the boxes the caller draws (drawn_clusters). Where two are closer, a band is
// opened across the whole drawing at the start of the later one: everything from there on moves
// on by the missing room (a cluster the band runs through grows by it), so nothing that was
// apart comes together and every row keeps its order.
void space_tiers(Drawing& drawing, const LayoutRequest& request, const IndexedGraph& graph,
                 double gap) {
  std::vector<std::optional<Box>> drawn = drawn_clusters(drawing, request, graph);
  std::vector<size_t> tiers;
  for (size_t c = 0; c < drawing.clusters.size(); ++c) {
    if (graph.cluster_parent[c] < 0 && drawn[c]) tiers.push_back(c);
  }
  for (const bool along_x : {true, false}) {
    auto lo = [along_x](const Box& box) { return along_x ? box.x : box.y; };
    auto hi = [along_x](const Box& box) { return along_x ? box.right() : box.bottom(); };
    auto other_lo = [along_x](const Box& box) { return along_x ? box.y : box.x; };
    auto other_hi = [along_x](const Box& box) { return along_x ? box.bottom() : box.right(); };
    // The later tier of each pair is taken in order along the axis, so a band opened for one
    // pair carries every later tier with it and is counted once.
    std::sort(tiers.begin(), tiers.end(),
              [&](size_t a, size_t b) { return lo(*drawn[a]) < lo(*drawn[b]); });
    for (size_t later : tiers) {
      const Box b = *drawn[later];
      double missing = 0;
      for (size_t earlier : tiers) {
        if (earlier == later) continue;
        const Box& a = *drawn[earlier];
        const bool facing = other_lo(a) < other_hi(b) && other_lo(b) < other_hi(a);
        if (!facing || hi(a) > lo(b) + kPinTolerance) continue;  // not before it
        missing = std::max(missing, gap - (lo(b) - hi(a)));
      }
      if (missing <= kPinTolerance) continue;
      const double line = lo(b) - kPinTolerance;
      auto open = [&](Box& box, bool grows) {
        if (lo(box) >= line) {
          (along_x ? box.x : box.y) += missing;
        } else if (grows && hi(box) > line) {
          (along_x ? box.w : box.h) += missing;
        }
      };
      for (Box& node : drawing.nodes)
        open(node, false);
      for (std::optional<Box>& cluster : drawing.clusters) {
        if (cluster) open(*cluster, true);
      }
      for (std::optional<Box>& cluster : drawn) {
        if (cluster) open(*cluster, true);
      }
      if (along_x == drawing.vertical_ranks) {  // across the rank axis: where edges cross rows
        for (auto& crossings : drawing.crossings) {
          for (RowCrossing& crossing : crossings) {
            if (crossing.cross >= line) crossing.cross += missing;
          }
        }
      } else {  // along it: the rows after the line
        for (Row& row : drawing.rows) {
          if (row.lo >= line) {
            row.lo += missing;
            row.hi += missing;
          }
        }
      }
      drawing.curves_from_engine = false;  // dot's splines no longer fit
    }
  }
}

// The mean offset from where the drawing has the pinned nodes to where they are pinned;
// nullopt without pinned nodes.
std::optional<Point2> pinned_offset(const Drawing& drawing, const LayoutRequest& request) {
  double dx = 0, dy = 0;
  int pinned = 0;
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    if (!request.nodes[i].pinned) continue;
    dx += request.nodes[i].x - drawing.nodes[i].x;
    dy += request.nodes[i].y - drawing.nodes[i].y;
    ++pinned;
  }
  if (pinned == 0) return std::nullopt;
  return Point2{dx / pinned, dy / pinned};
}

// Where hold_pinned will put each pinned node, in the drawing's present coordinates (the drawing
// moved by the pinned nodes' mean offset); empty without pinned nodes. Free shapes are ordered
// near the pinned ones they connect to where those are, not where the free layout has them.
std::vector<std::optional<Box>> held_places(const Drawing& drawing, const LayoutRequest& request) {
  const std::optional<Point2> offset = pinned_offset(drawing, request);
  if (!offset) return {};
  const double dx = offset->x, dy = offset->y;
  std::vector<std::optional<Box>> held(request.nodes.size());
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    const LayoutNode& node = request.nodes[i];
    if (node.pinned)
      held[i] = Box{node.x - dx, node.y - dy, drawing.nodes[i].w, drawing.nodes[i].h};
  }
  return held;
}

// Translates the drawing so the pinned nodes move least on average, then puts each exactly back.
void hold_pinned(Drawing& drawing, const LayoutRequest& request) {
  if (const std::optional<Point2> offset = pinned_offset(drawing, request))
    detail::translate(drawing, offset->x, offset->y);
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    const LayoutNode& node = request.nodes[i];
    if (!node.pinned) continue;
    Box& box = drawing.nodes[i];
    if (std::abs(box.x - node.x) > kPinTolerance || std::abs(box.y - node.y) > kPinTolerance) {
      drawing.moved[i] = true;
    }
    box.x = node.x;
    box.y = node.y;
  }
}

// Cluster boxes that hold their nodes and child clusters with padding (and a header band for a
// label). A box from the engine is kept where it already does (it may hold more room).
void fit_clusters(Drawing& drawing, const LayoutRequest& request, const IndexedGraph& graph) {
  const double pad = request.cluster_padding;
  for (auto it = graph.clusters_parents_first.rbegin(); it != graph.clusters_parents_first.rend();
       ++it) {
    const auto i = static_cast<size_t>(*it);
    const std::optional<Box> content = cluster_content(drawing, graph, i, drawing.clusters);
    std::optional<Box>& box = drawing.clusters[i];
    if (!content) continue;
    const double header = request.clusters[i].label.empty() ? 0 : request.cluster_header;
    const Box needed = detail::inflate(*content, pad, pad + header, pad, pad);
    box = box ? detail::unite(*box, needed) : needed;
  }
}

void move_to_origin(Drawing& drawing, std::vector<EdgeRoute>& routes,
                    const LayoutRequest& request) {
  std::optional<Box> all;
  auto add = [&all](const Box& box) { all = all ? detail::unite(*all, box) : box; };
  for (const Box& box : drawing.nodes)
    add(box);
  for (const std::optional<Box>& box : drawing.clusters) {
    if (box) add(*box);
  }
  for (const auto& route : routes) {
    for (const Point2& point : route.waypoints)
      add(Box{point.x, point.y, 0, 0});
  }
  if (!all) return;
  // Orthogonal layered and tree drawings move by whole px: the caller saves each shape at its
  // place rounded, which is then its place here rounded and moved by this, as the straight
  // routes between neighbours reckon (straighten_neighbours); the drawing then starts within
  // half a px of the origin.
  double dx = request.origin_x - all->x, dy = request.origin_y - all->y;
  if (request.routing == EdgeRouting::orthogonal && request.algorithm != Algorithm::force) {
    dx = std::round(dx);
    dy = std::round(dy);
  }
  detail::translate(drawing, dx, dy);
  for (auto& route : routes) {
    for (Point2& point : route.waypoints) {
      point.x += dx;
      point.y += dy;
    }
    if (route.label_point) {
      route.label_point->x += dx;
      route.label_point->y += dy;
    }
  }
}

LayoutResult assemble(const Drawing& drawing, std::vector<EdgeRoute> routes,
                      const LayoutRequest& request, const std::vector<size_t>& grown_for = {}) {
  LayoutResult result;
  result.nodes.reserve(request.nodes.size());
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    result.nodes.push_back({request.nodes[i].id, drawing.nodes[i].x, drawing.nodes[i].y,
                            request.nodes[i].width, request.nodes[i].height,
                            i < grown_for.size() ? grown_for[i] : 0});
  }
  for (size_t i = 0; i < request.clusters.size(); ++i) {
    const Box box = drawing.clusters[i].value_or(Box{});
    result.clusters.push_back({request.clusters[i].id, box.x, box.y, box.w, box.h});
  }
  for (size_t i = 0; i < request.edges.size(); ++i) {
    routes[i].id = request.edges[i].id;
    result.edges.push_back(std::move(routes[i]));
  }
  return result;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

template <class Value, size_t N>
std::optional<Value> lookup(std::string_view text,
                            const std::array<std::pair<std::string_view, Value>, N>& table) {
  for (const auto& [name, value] : table) {
    if (iequals(text, name)) return value;
  }
  return std::nullopt;
}

// Whether the nodes of two drawings are where each other's are (within kPinTolerance).
bool same_places(const Drawing& a, const Drawing& b) {
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    if (std::abs(a.nodes[n].x - b.nodes[n].x) > kPinTolerance ||
        std::abs(a.nodes[n].y - b.nodes[n].y) > kPinTolerance)
      return false;
  }
  return true;
}

// The corners of all routes as drawn (path_of), where a route turns.
int count_bends(const Drawing& drawing, const IndexedGraph& graph,
                const std::vector<EdgeRoute>& routes) {
  int bends = 0;
  for (size_t i = 0; i < routes.size(); ++i) {
    const IndexedGraph::Edge& edge = graph.edges[i];
    if (edge.source == edge.target) continue;
    const std::vector<Point2> path =
        detail::path_of(drawing.nodes[static_cast<size_t>(edge.source)],
                        drawing.nodes[static_cast<size_t>(edge.target)], routes[i]);
    for (size_t k = 1; k + 1 < path.size(); ++k) {
      const double ax = path[k].x - path[k - 1].x, ay = path[k].y - path[k - 1].y;
      const double bx = path[k + 1].x - path[k].x, by = path[k + 1].y - path[k].y;
      if (std::abs(ax * by - ay * bx) > 1e-6) ++bends;
    }
  }
  return bends;
}

}  // namespace

namespace {

// `grown_for`: empty while boxes may still grow for their ports; else, per node, the ends of the
// side its box grew for (0: kept its size).
core::Result<LayoutResult> lay_out(const LayoutRequest& request,
                                   const std::vector<size_t>& grown_for) {
  auto graph = detail::index_graph(request);
  if (!graph) return graph.error();
  if (request.nodes.empty() && request.clusters.empty()) {
    return assemble(Drawing{}, std::vector<EdgeRoute>(request.edges.size()), request);
  }
  const bool any_pinned = std::any_of(request.nodes.begin(), request.nodes.end(),
                                      [](const LayoutNode& node) { return node.pinned; });
  auto drawing = place(request, *graph, any_pinned);
  if (!drawing) return drawing.error();
  const bool force = request.algorithm == Algorithm::force;
  // A box too short for the ports of its side grows, and the drawing is placed again round it.
  if (grown_for.empty() && request.algorithm == Algorithm::layered &&
      request.routing == EdgeRouting::orthogonal) {
    std::vector<size_t> ends;
    if (std::optional<LayoutRequest> grown = room_for_ports(request, *drawing, *graph, ends))
      return lay_out(*grown, ends);
  }
  if (!force) align_tiers(*drawing, request, *graph);
  // From the placed drawing to its routes.
  auto finish = [&](Drawing& d) {
    if (!force) space_tiers(d, request, *graph, std::max(request.spacing, 0.0));
    // Long edges cross the rows between their ends through the gaps among the shapes, not round
    // the groups in the way (Graphviz keeps them out of every cluster).
    if (!force && request.routing == EdgeRouting::orthogonal && !request.clusters.empty())
      detail::choose_corridors(d, *graph);
    // Room for the lanes of orthogonal routes, made before pinned nodes are put back so that a
    // pinned layout is the free one moved with its pins.
    if (!force && request.routing == EdgeRouting::orthogonal)
      detail::widen_for_routes(d, *graph, request.spacing);
    if (force && !any_pinned && request.clusters.empty()) orient(d, *graph, request.direction);
    if (any_pinned) hold_pinned(d, request);
    if (force || any_pinned) {
      std::vector<bool> fixed(request.nodes.size());
      for (size_t i = 0; i < fixed.size(); ++i)
        fixed[i] = request.nodes[i].pinned;
      detail::separate_boxes(d.nodes, fixed, std::max(request.spacing, 0.0), d.moved);
    }
    // A free layered drawing's shapes on whole px, as the caller saves them (the move to the
    // origin is by whole px too): the routes are laid round the shapes where they will be.
    if (!any_pinned && request.algorithm == Algorithm::layered &&
        request.routing == EdgeRouting::orthogonal) {
      for (Box& box : d.nodes) {
        box.x = std::round(box.x);
        box.y = std::round(box.y);
      }
    }
    fit_clusters(d, request, *graph);
    return detail::route_edges(d, *graph, request.routing, request.spacing);
  };
  // A hub's ports in blocks by role, with its routes' corridors chosen from them (issue 13: Kafka's
  // consumers left among its producers, turning down first toward targets above it): tried on
  // drawings small enough to be ordered, and kept unless the routes without cross fewer edges.
  const bool try_hubs = !force && request.routing == EdgeRouting::orthogonal &&
                        graph->edges.size() <= kOrderEdgesUpTo &&
                        detail::has_hub_side(*drawing, *graph);
  drawing->hub_blocks = try_hubs;
  const Drawing placed = *drawing;  // finish changes the drawing it routes
  Drawing best_placed = placed;     // the best drawing so far as it was before finish
  auto routes = finish(*drawing);
  std::vector<Drawing> compact_candidates;  // the best drawing with its runs' tails slid up
  if (!force && request.routing == EdgeRouting::orthogonal && !request.clusters.empty() &&
      graph->edges.size() <= kOrderEdgesUpTo) {
    // Each shape of a group near the shapes it connects to in the other groups (Graphviz orders
    // a cluster's nodes by the cluster's own edges first and packs them from its start), each
    // tier kept in its place, then with the tiers free to sit level with their neighbours; both
    // again with a column longer than the band of the tiers it connects to packed into it (its
    // gaps as small as make it fit, down to one lane's room). Only
    // where the corridors are chosen anew (the places Graphviz kept for long edges may now hold
    // a shape), and only when the routes then put no more pairs of edges on one line and cross
    // fewer edges, or as many past fewer shapes (closer than kShapeClearance, which the reply
    // warns about), or over a shorter way: the order is judged on straight lines, the routes go
    // round.
    detail::RouteFigures best = detail::measure_routes(*drawing, *graph, routes);
    const std::vector<std::optional<Box>> held = held_places(placed, request);
    using detail::RunGaps;
    using detail::TierRoom;
    for (const auto& [room, gaps] :
         {std::pair{TierRoom::own, RunGaps::kept}, std::pair{TierRoom::free, RunGaps::kept},
          std::pair{TierRoom::own, RunGaps::packed}, std::pair{TierRoom::free, RunGaps::packed}}) {
      Drawing ordered = placed;
      if (!detail::order_within_clusters(ordered, *graph, held, room, gaps).changed) continue;
      // Shapes moved within their groups: each group round its contents again (the engine's box
      // was round the old places).
      for (size_t c = 0; c < request.clusters.size(); ++c) {
        if (!graph->cluster_nodes[c].empty() || !graph->cluster_children[c].empty())
          ordered.clusters[c].reset();
      }
      fit_clusters(ordered, request, *graph);
      ordered.curves_from_engine = false;
      const Drawing before_finish = ordered;
      auto ordered_routes = finish(ordered);
      const detail::RouteFigures now = detail::measure_routes(ordered, *graph, ordered_routes);
      if (detail::routes_better(now, best)) {
        best = now;
        *drawing = std::move(ordered);
        routes = std::move(ordered_routes);
        best_placed = before_finish;
      }
    }
    // Tails of 1, 2, ... nodes, each while it moves more than the one before.
    for (size_t most = 1; !any_pinned && most <= kTailsUpTo; ++most) {
      Drawing compact = best_placed;
      if (!detail::compact_run_tails(compact, *graph, held, 3 * detail::kShapeClearance, most))
        break;
      if (!compact_candidates.empty() && same_places(compact, compact_candidates.back())) break;
      compact_candidates.push_back(std::move(compact));
    }
  }
  // The hub's ports in blocks or not, then the clear channels: the routes as they will be.
  auto complete = [&](Drawing& d, std::vector<EdgeRoute>& r, Drawing placed_d) {
    if (try_hubs) {
      const detail::RouteFigures with_blocks = detail::measure_routes(d, *graph, r);
      Drawing plain = std::move(placed_d);
      plain.hub_blocks = false;
      auto plain_routes = finish(plain);
      const detail::RouteFigures without = detail::measure_routes(plain, *graph, plain_routes);
      if (without.one_line < with_blocks.one_line ||
          (without.one_line == with_blocks.one_line &&
           (without.crossings < with_blocks.crossings ||
            (without.crossings == with_blocks.crossings &&
             without.near_shapes < with_blocks.near_shapes)))) {
        d = std::move(plain);
        r = std::move(plain_routes);
      }
    }
    // Issue 13 (judge 9): a route across a tier holding neither of its ends keeps a clear
    // channel from that tier's shapes where the routes are no worse for it; on drawings small
    // enough to be ordered (up to six routings more: BM_DrawioTieredLayout, 1 782 edges, took
    // 1.2 -> 1.9 s CPU).
    if (!force && !any_pinned && request.routing == EdgeRouting::orthogonal &&
        !request.clusters.empty() && graph->edges.size() <= kOrderEdgesUpTo)
      detail::keep_channels(d, *graph, r, finish);
  };
  complete(*drawing, routes, std::move(best_placed));
  // A column longer than the band of the tiers it connects to, its tail hanging below the
  // shapes that use it (a column of stores beside a shorter column of services): the tail slid
  // up toward them, down to one lane's room between shapes, is kept when its finished routes put
  // no more pairs on one line, cross no more edges, pass no more shapes and bend no more; the
  // longer tails each against the best so far (ride-hailing: Data 885 -> 825 px tall, its two
  // lowest stores 60 px up).
  detail::RouteFigures was = compact_candidates.empty()
                                 ? detail::RouteFigures{}
                                 : detail::measure_routes(*drawing, *graph, routes);
  int was_bends = compact_candidates.empty() ? 0 : count_bends(*drawing, *graph, routes);
  for (Drawing& compact : compact_candidates) {
    for (size_t c = 0; c < request.clusters.size(); ++c) {
      if (!graph->cluster_nodes[c].empty() || !graph->cluster_children[c].empty())
        compact.clusters[c].reset();
    }
    fit_clusters(compact, request, *graph);
    compact.curves_from_engine = false;
    Drawing compact_placed = compact;
    auto compact_routes = finish(compact);
    complete(compact, compact_routes, std::move(compact_placed));
    const detail::RouteFigures now = detail::measure_routes(compact, *graph, compact_routes);
    const int bends = count_bends(compact, *graph, compact_routes);
    if (now.one_line <= was.one_line && now.crossings <= was.crossings &&
        now.near_shapes <= was.near_shapes && bends <= was_bends) {
      was = now;
      was_bends = bends;
      *drawing = std::move(compact);
      routes = std::move(compact_routes);
    }
  }
  const std::vector<std::optional<Box>> frames = drawn_clusters(*drawing, request, *graph);
  detail::place_labels(*drawing, *graph, request.edges, routes, frames,
                       cluster_titles(frames, request));
  if (!any_pinned) move_to_origin(*drawing, routes, request);
  return assemble(*drawing, std::move(routes), request, grown_for);
}

}  // namespace

core::Result<LayoutResult> run_layout(const LayoutRequest& request) {
  return lay_out(request, {});
}

std::optional<Algorithm> parse_algorithm(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, Algorithm>, 7> kNames = {{
      {"layered", Algorithm::layered},
      {"dot", Algorithm::layered},
      {"dagre", Algorithm::layered},
      {"tree", Algorithm::tree},
      {"force", Algorithm::force},
      {"neato", Algorithm::force},
      {"fdp", Algorithm::force},
  }};
  return lookup(text, kNames);
}

std::optional<Direction> parse_direction(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, Direction>, 4> kNames = {{
      {"TB", Direction::TB},
      {"LR", Direction::LR},
      {"BT", Direction::BT},
      {"RL", Direction::RL},
  }};
  return lookup(text, kNames);
}

std::optional<EdgeRouting> parse_routing(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, EdgeRouting>, 6> kNames = {{
      {"orthogonal", EdgeRouting::orthogonal},
      {"ortho", EdgeRouting::orthogonal},
      {"spline", EdgeRouting::spline},
      {"curved", EdgeRouting::spline},
      {"straight", EdgeRouting::straight},
      {"polyline", EdgeRouting::straight},
  }};
  return lookup(text, kNames);
}

std::string_view algorithm_name(Algorithm algorithm) {
  static constexpr std::array<std::string_view, 3> kNames = {"layered", "tree", "force"};
  return kNames[static_cast<size_t>(algorithm)];
}

std::string_view direction_name(Direction direction) {
  static constexpr std::array<std::string_view, 4> kNames = {"TB", "LR", "BT", "RL"};
  return kNames[static_cast<size_t>(direction)];
}

std::string_view routing_name(EdgeRouting routing) {
  static constexpr std::array<std::string_view, 3> kNames = {"orthogonal", "spline", "straight"};
  return kNames[static_cast<size_t>(routing)];
}

}  // namespace fcp::drawio::layout
