// Ports of one side in the order the routes arrive from: two routes that reach (or leave) one
// side of a shape and cross each other on the way swap their ports there.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// For each two orthogonal routes that end on one side of a shape (both reach it or both leave
// it, or one each) and cross each other: their ports on that side swapped, each route kept up
// to one of its runs parallel to that side, which runs on (or stops short) to its new port's line
// and turns straight into it; where no such pair does, either or both routed anew between the
// ports clear of every shape (route_between_ports). The pair that then crosses fewest routes
// (each other included), then bends least, is kept when it crosses fewer than before with no
// more bends between them, is at most 10 % longer, enters no more groups holding neither of its
// ends, passes no shape closer than kShapeClearance, and makes no more runs side by side with
// other routes (on one line, closer than 12 px for 20 px, closer than 20 px for 30 px). The
// ports of a side are spread in the order of the neighbouring stops: a route from further away
// that passes in front of the other's last (first) run before it reaches the side crosses it
// there; the far one should take the port on the far side. At most 200 pairs are tried (a large
// diagram keeps the rest). Returns the number of swaps kept.
size_t swap_crossed_ports(const Drawing& drawing, const IndexedGraph& graph,
                          std::vector<EdgeRoute>& routes);

}  // namespace fcp::drawio::layout::detail
