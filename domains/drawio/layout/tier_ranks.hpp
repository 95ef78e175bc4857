// Ranks that make groups tiers: top-level clusters follow each other along the flow direction.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// A rank per node such that every top-level cluster (and every node outside clusters) is a unit
// whose nodes share no rank with another unit's unless both units are in one tier. Units are
// ordered by the edges between them: between two units the direction most of their edges run
// wins, cycles through more units are broken where a depth-first search closes them, and each
// top-level cluster is a tier of its own (taken in a topological order, earliest made first among
// those free), a node outside clusters in the tier after its deepest predecessor's. Inside a
// unit, nodes are ranked by longest path over the edges among them. Tier k starts one rank after
// the deepest unit of tier k − 1 ends, so a drawing along the ranks reads clients → edge →
// services → data → external left to right. Empty when there is no cluster (dot's own ranking is
// then used).
std::vector<int> tier_ranks(const IndexedGraph& graph, size_t node_count);

}  // namespace fcp::drawio::layout::detail
