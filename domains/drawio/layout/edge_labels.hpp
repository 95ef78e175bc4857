// Where along its own route each edge label goes: on nothing else if the route allows.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// Sets label_position on the routes of edges with a label size: the point along the edge's path
// (from its source port through its waypoints to its target port, as draw.io draws it) where the
// label's box lies on the fewest shapes that are not the edge's ends, then on the fewest labels
// placed before it, then under the fewest other edges, nearest the middle. Positions are draw.io's
// relative label positions (−1 at the source, 0 the middle, 1 at the target).
void place_labels(const Drawing& drawing, const IndexedGraph& graph,
                  const std::vector<LayoutEdge>& edges, std::vector<EdgeRoute>& routes);

}  // namespace fcp::drawio::layout::detail
