#include "domains/drawio/layout/tier_ranks.hpp"

#include <algorithm>
#include <utility>

namespace fcp::drawio::layout::detail {
namespace {

using Adjacency = std::vector<std::vector<int>>;

// Longest-path layers of a directed graph whose cycles are broken where a depth-first search
// closes them (the closing edge is dropped): a node sits one layer after its deepest predecessor.
std::vector<int> longest_path_layers(const Adjacency& out) {
  const size_t count = out.size();
  enum : char { unseen, open, done };
  std::vector<char> state(count, unseen);
  Adjacency dag(count);
  std::vector<std::pair<int, size_t>> stack;  // node, next out-edge
  for (size_t root = 0; root < count; ++root) {
    if (state[root] != unseen) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    state[root] = open;
    while (!stack.empty()) {
      const auto n = static_cast<size_t>(stack.back().first);
      size_t& next = stack.back().second;
      if (next == out[n].size()) {
        state[n] = done;
        stack.pop_back();
        continue;
      }
      const int target = out[n][next++];
      const auto t = static_cast<size_t>(target);
      if (state[t] == open) continue;  // closes a cycle
      dag[n].push_back(target);
      if (state[t] == unseen) {
        state[t] = open;
        stack.emplace_back(target, 0);
      }
    }
  }
  std::vector<int> in_degree(count, 0);
  for (const auto& targets : dag) {
    for (int target : targets)
      ++in_degree[static_cast<size_t>(target)];
  }
  std::vector<int> order;
  for (size_t i = 0; i < count; ++i) {
    if (in_degree[i] == 0) order.push_back(static_cast<int>(i));
  }
  std::vector<int> layer(count, 0);
  for (size_t next = 0; next < order.size(); ++next) {
    const auto n = static_cast<size_t>(order[next]);
    for (int target : dag[n]) {
      const auto t = static_cast<size_t>(target);
      layer[t] = std::max(layer[t], layer[n] + 1);
      if (--in_degree[t] == 0) order.push_back(target);
    }
  }
  return layer;
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
  const std::vector<int> tier = longest_path_layers(unit_edges);
  const std::vector<int> local = longest_path_layers(local_edges);
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
