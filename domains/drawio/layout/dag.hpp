// Directed graphs as adjacency lists of node indices: cycles broken by depth-first search, and
// longest-path layers (what layered layout and its cost estimate both rank by).
#pragma once

#include <vector>

namespace fcp::drawio::layout::detail {

using Adjacency = std::vector<std::vector<int>>;  // out[n]: the targets of node n's edges

// What happens to an edge that closes a cycle in the depth-first search.
enum class BackEdges : char { drop, reverse };

// `out` without cycles: each edge that closes one (found by a depth-first search from each node
// in index order) is dropped or reversed.
Adjacency acyclic(const Adjacency& out, BackEdges back_edges);

// Longest-path layers of a DAG: a node sits one layer after its deepest predecessor, sources at 0.
std::vector<int> longest_path_layers(const Adjacency& dag);

}  // namespace fcp::drawio::layout::detail
