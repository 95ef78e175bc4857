// Graph layout for diagrams: places boxes, group boxes and edge bend points with Graphviz.
//
// The unit knows nothing about draw.io: callers describe a plain graph (boxes with sizes, nested
// clusters, edges) in px and get back top-left positions, cluster boxes and edge waypoints in the
// same absolute page coordinates (x right, y down).
//
// Algorithms
//   layered  Graphviz dot (rankdir from Direction, nodesep = ranksep = spacing). Long edges give
//            dot a virtual node per rank they cross; when an estimate of those runs to tens of
//            thousands, dot gets iteration limits (nslimit, mclimit) so the layout stays within
//            a few seconds, and its splines are skipped (see dot_budget.hpp).
//   tree     A tidy tree placement of its own when the edges form a forest (every node has at most
//            one parent, no cycle) and there are no clusters: depth rows along the direction,
//            sibling subtrees packed by their per-depth contours (Reingold–Tilford style, no
//            thread pointers), every parent centred over its first and last child. Otherwise it
//            falls back to dot with ordering=out, which keeps children in edge order.
//   force    Graphviz neato (stress majorisation, deterministic, ~1 s for 1 000 nodes with a
//            loose convergence threshold); with clusters Graphviz fdp, the spring model that
//            knows clusters (fdp orders its internal graph by pointer comparisons, so those
//            drawings may differ between runs). Their output may overlap, so the boxes are then
//            separated until every gap is at least `spacing`. Without pinned nodes or clusters the
//            drawing is turned so that edges point along the direction on average.
//
// Room for ports (layered, orthogonal): a node with may_grow whose side along the rank rows
// (left/right for LR/RL, top/bottom for TB/BT) holds 6 or more ends of edges to other rows,
// more than fit 15 px apart (the router's least port gap) with as much at each corner, grows
// along that side to (ends + 1) * 15 px, rounded up to 10 px, at most 3 times its other side;
// then the drawing is placed again with the grown box (Graphviz sees its size). It never
// shrinks. NodePlacement carries the size it has.
//
// Pinned nodes (incremental layout) keep exactly their (x, y):
//   force without clusters: neato itself holds them (pos="x,y!", pin=true), the rest flows round.
//   otherwise: the whole layout is translated by the mean displacement of the pinned nodes from
//   where the algorithm put them to where they must stay; then each pinned node is set back
//   exactly and any box overlapping it (closer than `spacing`) is pushed away along the axis of
//   least penetration, cascading to boxes it then overlaps. Cluster boxes grow to contain their
//   members. With pinned nodes nothing is moved to origin_x/origin_y.
//
// Edge routes (waypoints are bend points only, never the end points):
//   orthogonal  Graphviz's own ortho router takes ~35 s for 1 000 nodes and ignores clusters, so
//               corners are computed here: for layered and tree, an edge leaves its source along
//               the rank axis, turns in each gap between rank rows and passes every intermediate
//               row where dot's spline crosses it (a gap dot kept free for it); with groups,
//               where corridors.hpp puts it instead (through the gaps between a row's shapes,
//               not round the groups in the way). In a gap it turns
//               halfway, or, where cluster borders cut the gap, in the widest stretch inside the
//               fewest clusters that do not hold both its ends. Edges sharing a side of a node
//               leave or reach it at ports spread along that side (EdgeRoute::exit/entry), in
//               the order of where they go; runs across one gap whose spans meet get lanes of
//               their own, ordered to avoid needless crossings, and a gap too narrow for its
//               lanes (12 px apart) is widened (not when nodes are pinned). No two edges share
//               a line.
//               For force, a Z-shaped route along the axis on which the boxes are further apart
//               (it may pass other boxes).
//   spline      layered: points sampled along dot's spline; tree, and layered edges whose end
//               moved after layout or whose graph was too large for dot's splines: three points
//               on an S-curve per pair of orthogonal corners; force: none (the force engines'
//               spline routers take minutes at 1 000 nodes).
//   straight    none.
//
// Thread safety: run_layout may be called from any thread. Graphviz is not thread-safe: in process
// its calls are serialised internally; with worker processes configured (graphviz_worker.hpp, as
// fcpd does) larger layouts run in parallel in workers and stop when their call must
// (core::call_stop). Nothing is ever written to stdout or stderr.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::drawio::layout {

enum class Algorithm { layered, tree, force };
enum class Direction { TB, LR, BT, RL };
enum class EdgeRouting { orthogonal, spline, straight };

struct LayoutNode {
  std::string id;
  double width = 0, height = 0;  // px
  double x = 0, y = 0;           // current top-left, px (absolute page coordinates)
  bool pinned = false;           // keep exactly at (x, y)
  std::string cluster;           // id of the innermost LayoutCluster containing it, or empty
  // The layout may make the box longer along a side whose edges need more room than it has
  // (layered, orthogonal, unpinned only; see ports_room): set for a box whose size is the
  // caller's default, never for one the user sized.
  bool may_grow = false;
};

// parent empty = top level; clusters nest. A cluster's box holds its nodes and child clusters with
// `cluster_padding` around them, plus a band at the top for a non-empty label.
struct LayoutCluster {
  std::string id;
  std::string parent;
  std::string label;
};

// Node ids; edges to clusters are not supported. Self-loops get no waypoints.
struct LayoutEdge {
  std::string id;
  std::string source;
  std::string target;
  double label_width = 0, label_height = 0;  // px; a label gets a place along the route
};

struct LayoutRequest {
  std::vector<LayoutNode> nodes;
  std::vector<LayoutCluster> clusters;
  std::vector<LayoutEdge> edges;
  Algorithm algorithm = Algorithm::layered;
  Direction direction = Direction::TB;
  double spacing = 60;  // px between nodes and between ranks
  EdgeRouting routing = EdgeRouting::orthogonal;
  double origin_x = 40, origin_y = 40;  // where the top-left of the laid-out drawing goes when
                                        // nothing is pinned (orthogonal layered and tree routes:
                                        // within half a px, moved by whole px)
  double cluster_padding = 20;          // px between a cluster's border and what it contains
  double cluster_header = 30;           // px band above the contents of a cluster with a label
  // px between a cluster's bottom border and what it contains, where the caller's groups keep
  // less (or more) room there than on the sides; < 0: cluster_padding. Labels keep off the
  // borders of the boxes the caller fits round each cluster's contents with these paddings.
  double cluster_padding_bottom = -1;
};

struct Point2 {
  double x = 0, y = 0;
};
struct NodePlacement {
  std::string id;
  double x = 0, y = 0;           // new top-left, px
  double width = 0, height = 0;  // the box's size: the request's, or grown (may_grow)
  std::size_t grown_for = 0;     // grown: the ends of the side it grew for; else 0
};
struct ClusterBox {
  std::string id;
  double x = 0, y = 0, width = 0, height = 0;
};
struct EdgeRoute {
  std::string id;
  std::vector<Point2> waypoints;  // bend points only, not the end points
  // Where the route leaves its source and reaches its target when that is not the middle of the
  // box's side (ports spread along a side shared with other edges): fractions of the box's width
  // and height from its top-left (draw.io's exitX/exitY, entryX/entryY).
  std::optional<Point2> exit, entry;
  // For an edge with a label size: where along the route its label goes, as draw.io's relative
  // label position (−1 at the source, 0 the middle, 1 at the target), chosen where the label
  // lies on no shape but the edge's ends and on no other label if the route allows, then under
  // the fewest other edges, with the fewest others within 8 px, on no corner of its own route,
  // across no group border and 8 px clear of group titles and frames, nearest the middle.
  std::optional<double> label_position;
  // The label's centre on the layout's path (the ports on the ends' boxes): the caller, whose
  // drawn path may end elsewhere (a port on a slanted or round outline), keeps the label there.
  std::optional<Point2> label_point;
};
// Every vector is in the order of the request's.
struct LayoutResult {
  std::vector<NodePlacement> nodes;
  std::vector<ClusterBox> clusters;
  std::vector<EdgeRoute> edges;
};

// What plain Graphviz dot draws for the request (rankdir from its direction, its clusters, dot's
// default separations and splines, none of this unit's own work): the baseline that layouts are
// measured against. Nodes and clusters as boxes (top-left, size) aligned with the request's
// vectors; each edge as a polyline sampled along its spline, end points included (empty for
// self-loops). Same coordinates as run_layout (y down), not moved to the origin.
struct ReferenceDrawing {
  std::vector<ClusterBox> nodes;
  std::vector<ClusterBox> clusters;
  std::vector<std::vector<Point2>> edges;
};
core::Result<ReferenceDrawing> run_reference_dot(const LayoutRequest& request);

// Lays out the graph. Errors: duplicate or unknown node/cluster ids in nodes, edges or clusters,
// a cluster cycle, Graphviz failure.
core::Result<LayoutResult> run_layout(const LayoutRequest& request);

// Parsers for the verb params, case-insensitive ("layered"/"dot"/"dagre" → layered, "tree",
// "force"/"neato"/"fdp" → force; "TB"/"LR"/"BT"/"RL"; "orthogonal"/"ortho", "spline"/"curved",
// "straight"/"polyline"); nullopt if unknown.
std::optional<Algorithm> parse_algorithm(std::string_view text);
std::optional<Direction> parse_direction(std::string_view text);
std::optional<EdgeRouting> parse_routing(std::string_view text);
std::string_view algorithm_name(Algorithm algorithm);
std::string_view direction_name(Direction direction);
std::string_view routing_name(EdgeRouting routing);

}  // namespace fcp::drawio::layout
