// Ranks that make groups tiers: top-level clusters follow each other along the flow direction.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// A rank per node such that every top-level cluster (and every node outside clusters) is a unit
// whose nodes share no rank with another unit's unless both units are in one tier. Units are
// ordered into tiers by the edges between them (longest path over the unit graph, cycles broken
// where a depth-first search closes them); inside a unit, nodes are ranked by the edges among
// them the same way. Tier k starts one rank after the deepest unit of tier k − 1 ends, so a
// drawing along the ranks reads clients → edge → services → data left to right. Empty when there
// is no cluster (dot's own ranking is then used).
std::vector<int> tier_ranks(const IndexedGraph& graph, size_t node_count);

}  // namespace fcp::drawio::layout::detail
