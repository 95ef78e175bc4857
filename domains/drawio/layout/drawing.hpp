// The layout library's internal picture of a graph: validated indices in, boxes and rows out.
#pragma once

#include <optional>
#include <vector>

#include "domains/drawio/layout/graph_layout.hpp"

namespace fcp::drawio::layout::detail {

// px an orthogonal route keeps from shapes that are not its ends (closer is warned about).
inline constexpr double kShapeClearance = 10;

// An axis-aligned box, top-left corner and size, page coordinates (y down), px.
struct Box {
  double x = 0, y = 0, w = 0, h = 0;
  double cx() const { return x + w / 2; }
  double cy() const { return y + h / 2; }
  double right() const { return x + w; }
  double bottom() const { return y + h; }
};

Box unite(const Box& a, const Box& b);
Box inflate(const Box& box, double left, double top, double right, double bottom);

// The request with every id resolved to an index into the request's vectors.
struct IndexedGraph {
  struct Edge {
    int source = 0, target = 0;
  };
  std::vector<Edge> edges;                         // aligned with request.edges
  std::vector<int> node_cluster;                   // cluster index per node, -1 for top level
  std::vector<int> cluster_parent;                 // parent cluster index, -1 for top level
  std::vector<int> clusters_parents_first;         // every cluster, each after its parent
  std::vector<std::vector<int>> cluster_nodes;     // direct member nodes per cluster
  std::vector<std::vector<int>> cluster_children;  // direct child clusters per cluster
};

// Validates ids (duplicates, unknown references, cluster cycles) and resolves them.
core::Result<IndexedGraph> index_graph(const LayoutRequest& request);

// A rank row of a layered or tree drawing: nodes sharing one position on the rank axis.
struct Row {
  double lo = 0, hi = 0;  // extent along the rank axis
  std::vector<int> nodes;
};

// Where an edge crosses an intermediate row (a gap between that row's nodes), for orthogonal
// routes of edges that span several rows.
struct RowCrossing {
  int row = 0;
  double cross = 0;  // coordinate across the rank axis
};

struct Drawing {
  std::vector<Box> nodes;                    // aligned with request.nodes
  std::vector<std::optional<Box>> clusters;  // aligned with request.clusters; empty if unknown
  std::vector<std::vector<RowCrossing>> crossings;  // per edge, in order from source to target
  std::vector<std::vector<Point2>> curves;          // per edge: sampled spline bend points
  bool curves_from_engine = false;                  // curves hold the engine's routes
  bool vertical_ranks = true;                       // rank axis is y (TB/BT) or x (LR/RL)
  std::vector<Row> rows;      // empty when the drawing has no rank rows (force)
  std::vector<int> node_row;  // row index per node or -1; sized like nodes when rows exist
  std::vector<bool> moved;    // node moved on its own after the placement (rows, curves stale)
  // The ports of a hub's sides go in blocks by role (port_order), and the corridors of its
  // routes are chosen from those blocks.
  bool hub_blocks = false;
  // The corridors through a tier holding neither end of a route keep kChannel off its shapes
  // where they can (channels.hpp: keep_channels sets it on the drawings it routes again).
  bool channels = false;
};

void translate(Drawing& drawing, double dx, double dy);

// Groups nodes into rows by their position on the rank axis (nodes of one rank share it).
void build_rows(Drawing& drawing, const std::vector<int>& row_key_of_node);

// One end of an edge on a side of a shape, for ordering the ports there.
struct SideEnd {
  double next = 0;     // where its route goes next, across the rank axis
  bool leaves = true;  // the edge leaves the shape here (else it arrives)
  size_t tie = 0;      // breaks ties (the edge's index)
};
// The order of the ports of one side, from its low end (top or left) up: by where their routes
// go next, so that they need not cross at the shape; on a hub's side, one that holds at least
// kHubBlock edges leaving and as many arriving, in two blocks by role (incoming together,
// outgoing together: a reader sees which way each runs), the block whose routes go lower
// across the rank axis (their mean `next`) first, each block in the order of where they go.
// Returns indices into `ends`. Without `hub_blocks`, every side in the order of where they go.
inline constexpr size_t kHubBlock = 2;
std::vector<size_t> port_order(const std::vector<SideEnd>& ends, bool hub_blocks);

// Whether a side of a shape holds a hub's ends (kHubBlock leaving and as many arriving) across
// the rows: where Drawing::hub_blocks changes anything.
bool has_hub_side(const Drawing& drawing, const IndexedGraph& graph);

}  // namespace fcp::drawio::layout::detail
