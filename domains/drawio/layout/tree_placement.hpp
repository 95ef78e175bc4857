// Tidy tree placement for forests: depth rows along the direction, children centred under parents.
#pragma once

#include <optional>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// The drawing of a forest (each node with at most one parent, no cycle; self-loops and repeated
// edges ignored), or nullopt when the edges do not form one. Roots and children keep the order of
// the request. Sibling subtrees are packed as close as their per-depth extents allow with
// `spacing` between them; a parent is centred between its first and last child; rows of one depth
// are `spacing` apart. Positions are not yet moved to the request's origin.
std::optional<Drawing> place_tree(const LayoutRequest& request, const IndexedGraph& graph);

}  // namespace fcp::drawio::layout::detail
