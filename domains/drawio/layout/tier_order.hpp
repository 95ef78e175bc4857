// Order of the shapes of one group within a rank row: each near the shapes it connects to.
#pragma once

#include <optional>
#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// What the ordering measured on the drawing's straight centre-to-centre lines.
struct OrderFigures {
  int crossings_before = 0, crossings_after = 0;  // pairs of edges whose lines cross
  double length_before = 0, length_after = 0;     // px across the rank axis, all edges
  bool changed = false;                           // some run took another order
};

// Where the shapes of a tier may move across the rank axis: within the extent of their tier's
// nodes (each tier keeps its size and place), or within the extent of all clustered nodes (the
// drawing keeps its size; a tier may move up or down to sit level with its neighbours).
enum class TierRoom { own, free };

// The gaps between the shapes of a run: those the engine left, or, where the run would then be
// longer than the band of the tiers its shapes connect to (a column of stores beside a shorter
// column of the services that use them), as much smaller as makes it fit that band, down to
// room for one lane; a run that then fits is kept within the band.
enum class RunGaps { kept, packed };

// Reorders, within each rank row, the nodes of one innermost cluster that stand side by side
// (no other node or cluster between them): by the barycentre of the nodes they connect to (in
// any row, in any cluster), then by swapping neighbours, each order placed level with the
// barycentres (least squares, the order and the run's smallest gap kept, clear of the row's
// other nodes and clusters, within the room `tiers` gives). A node alone in its row is only
// moved level. An order or place is kept only when it crosses fewer edges, or as many over a
// shorter distance across the rank axis (centre-to-centre lines; the rank axis positions do not
// change). Graphviz orders the nodes of a cluster by the cluster's own edges first and packs
// them from the cluster's start; a shape used mostly from another tier (a database its service
// writes) could end far from it. The work is bounded (a fixed number of edge pairs tested): a
// large diagram keeps the orders improved until then. Nodes with a box in `held` (pinned ones:
// where they will be put back, in the drawing's coordinates) count there and are not moved.
// With `gaps` packed, a run longer than its neighbours' band is packed (see RunGaps). Returns
// the figures.
OrderFigures order_within_clusters(Drawing& drawing, const IndexedGraph& graph,
                                   const std::vector<std::optional<Box>>& held, TierRoom tiers,
                                   RunGaps gaps = RunGaps::kept);

// Slides up the tail of each run (as order_within_clusters finds them) that ends past the band
// of the tiers its nodes connect to: from the run's end, the nodes that sit past the barycentre
// of their neighbours, at most `most` of them, each toward it but no nearer the node before it
// than `gap` (a column of
// stores hanging below the services that use them). The order and every other node stay;
// nodes with a box in `held` are not moved. Returns whether a node moved.
bool compact_run_tails(Drawing& drawing, const IndexedGraph& graph,
                       const std::vector<std::optional<Box>>& held, double gap, size_t most);

}  // namespace fcp::drawio::layout::detail
