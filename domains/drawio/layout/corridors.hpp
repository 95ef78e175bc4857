// Where long edges of a tiered drawing cross the rows between their ends: through gaps between
// the shapes of each row, inside the groups they belong to or beside the others, instead of round
// the whole drawing where Graphviz puts them (it keeps an edge's virtual nodes out of every
// cluster, so an edge leaving a group that spans several rows runs round that group).
#pragma once

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// Chooses drawing.crossings anew for every edge between unmoved nodes whose rows are two or more
// apart, when the drawing has rows and clusters: in each row between its ends the route passes at
// a free place (at least a lane's width off the row's nodes and off cluster borders) inside the
// box round all top-level clusters. The places of one edge are chosen together, the cheapest
// route over length, steps aside (bends) and groups entered that hold neither end, so that a
// route goes straight through the gaps of a group in the way rather than round it when that is
// much shorter, and keeps its line from row to row (Graphviz's crossing breaks ties). Places of
// one gap between shapes are a lane apart; a gap takes no more routes than it has lanes for.
// Returns the number of edges whose crossings changed.
size_t choose_corridors(Drawing& drawing, const IndexedGraph& graph);

}  // namespace fcp::drawio::layout::detail
