// A clear channel for a route that crosses a tier holding neither of its ends (issue 13, judge
// 9: Auth service -> Users DB crossed the whole Services group 4.8 px under Notifications and 12
// px over Dispatch, where it read as theirs).
#pragma once

#include <functional>
#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// px a route keeps from the shapes of a top-level cluster (tier) holding neither of its ends
// where it runs past them along the rank axis.
inline constexpr double kChannel = 30;
// px short of kChannel that are let be: a route a few px closer reads as passing as well, and
// moving shapes for it costs more than it gives.
inline constexpr double kChannelSlack = 5;

// How far the runs of `routes` along the rank axis fall short of kChannel from the shapes they
// pass in tiers holding neither end of theirs: the sum over (route, shape) pairs, px.
double channel_shortfall(const Drawing& drawing, const IndexedGraph& graph,
                         const std::vector<EdgeRoute>& routes);

// Nudges shapes apart across the rank axis for every such pair: the shape, with the shapes of its
// row and tier on its side of the run, moves away from the run by what is missing, as far as the
// tier's content leaves room on that side (the tier keeps its size; rows and their order stay).
// What the shape's side has no room for, the shapes on the other side of the run make (the gap
// widens and the route's corridor moves into it), or with `across` the shape goes over to the
// other side of the run, kChannel off it, with the shapes of its row and tier there (the run
// keeps its line). Moves are whole px. Returns whether any shape moved.
bool open_channels(Drawing& drawing, const IndexedGraph& graph,
                   const std::vector<EdgeRoute>& routes, bool across);

// Corners of the routes as drawn, summed.
int route_bends(const Drawing& drawing, const IndexedGraph& graph,
                const std::vector<EdgeRoute>& routes);

// Routes a finished drawing again (`finish`: the placed drawing to its routes) while its routes
// fall short of kChannel through tiers holding neither end: with the corridors put in the
// middle of the tiers' gaps (Drawing::channels), then also with the shapes nudged apart
// (open_channels, either way), up to two rounds. Keeps the drawing and routes that fall short by
// least, when they cross no more edges, put no more pairs on one line, pass no more shapes
// within kShapeClearance and bend no more than those it had.
void keep_channels(Drawing& drawing, const IndexedGraph& graph, std::vector<EdgeRoute>& routes,
                   const std::function<std::vector<EdgeRoute>(Drawing&)>& finish);

}  // namespace fcp::drawio::layout::detail
