#include "domains/drawio/layout/tier_ranks.hpp"

#include <algorithm>
#include <utility>

#include "domains/drawio/layout/dag.hpp"

namespace fcp::drawio::layout::detail {
namespace {

// Longest-path layers of a directed graph whose cycles are broken where a depth-first search
// closes them (the closing edge is dropped): a node sits one layer after its deepest predecessor.
std::vector<int> layers_without_cycles(const Adjacency& out) {
  return longest_path_layers(acyclic(out, BackEdges::drop));
}

// The unit of each node: its top-level cluster, or a unit of its own outside clusters.
std::vector<int> units_of(const IndexedGraph& graph, size_t node_count, int& unit_count) {
  std::vector<int> top_unit(graph.cluster_parent.size(), -1);
  unit_count = 0;
  for (int cluster : graph.clusters_parents_first) {
    const auto c = static_cast<size_t>(cluster);
    const int parent = graph.cluster_parent[c];
    top_unit[c] = parent < 0 ? unit_count++ : top_unit[static_cast<size_t>(parent)];
  }
  std::vector<int> unit(node_count);
  for (size_t n = 0; n < node_count; ++n) {
    const int cluster = graph.node_cluster[n];
    unit[n] = cluster < 0 ? unit_count++ : top_unit[static_cast<size_t>(cluster)];
  }
  return unit;
}

}  // namespace

std::vector<int> tier_ranks(const IndexedGraph& graph, size_t node_count) {
  if (graph.clusters_parents_first.empty()) return {};
  int unit_count = 0;
  const std::vector<int> unit = units_of(graph, node_count, unit_count);
  Adjacency unit_edges(static_cast<size_t>(unit_count));
  Adjacency local_edges(node_count);
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const auto s = static_cast<size_t>(edge.source), t = static_cast<size_t>(edge.target);
    if (s == t) continue;
    if (unit[s] == unit[t]) {
      local_edges[s].push_back(edge.target);
    } else {
      unit_edges[static_cast<size_t>(unit[s])].push_back(unit[t]);
    }
  }
  const std::vector<int> tier = layers_without_cycles(unit_edges);
  const std::vector<int> local = layers_without_cycles(local_edges);
  const int tiers = unit_count == 0 ? 0 : *std::max_element(tier.begin(), tier.end()) + 1;
  std::vector<int> depth(static_cast<size_t>(tiers), 0);  // ranks the deepest unit of a tier takes
  for (size_t n = 0; n < node_count; ++n) {
    int& d = depth[static_cast<size_t>(tier[static_cast<size_t>(unit[n])])];
    d = std::max(d, local[n] + 1);
  }
  std::vector<int> start(static_cast<size_t>(tiers), 0);
  for (size_t k = 1; k < start.size(); ++k)
    start[k] = start[k - 1] + depth[k - 1];
  std::vector<int> rank(node_count);
  for (size_t n = 0; n < node_count; ++n)
    rank[n] = start[static_cast<size_t>(tier[static_cast<size_t>(unit[n])])] + local[n];
  return rank;
}

}  // namespace fcp::drawio::layout::detail
