#include "domains/drawio/layout/tier_ranks.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>

#include "domains/drawio/layout/dag.hpp"

namespace fcp::drawio::layout::detail {
namespace {

// Longest-path layers of a directed graph whose cycles are broken where a depth-first search
// closes them (the closing edge is dropped): a node sits one layer after its deepest predecessor.
std::vector<int> layers_without_cycles(const Adjacency& out) {
  return longest_path_layers(acyclic(out, BackEdges::drop));
}

// The unit of each node: its top-level cluster, or a unit of its own outside clusters. Clusters
// are units 0 … cluster_units − 1, in the order they were made.
std::vector<int> units_of(const IndexedGraph& graph, size_t node_count, int& unit_count,
                          int& cluster_units) {
  std::vector<int> top_unit(graph.cluster_parent.size(), -1);
  unit_count = 0;
  for (int cluster : graph.clusters_parents_first) {
    const auto c = static_cast<size_t>(cluster);
    const int parent = graph.cluster_parent[c];
    top_unit[c] = parent < 0 ? unit_count++ : top_unit[static_cast<size_t>(parent)];
  }
  cluster_units = unit_count;
  std::vector<int> unit(node_count);
  for (size_t n = 0; n < node_count; ++n) {
    const int cluster = graph.node_cluster[n];
    unit[n] = cluster < 0 ? unit_count++ : top_unit[static_cast<size_t>(cluster)];
  }
  return unit;
}

// Edges between units, counted by (source unit, target unit).
using UnitEdges = std::unordered_map<std::uint64_t, int>;
std::uint64_t pair_key(std::uint32_t source, std::uint32_t target) {
  return (std::uint64_t{source} << 32) | target;
}

// The tier of each unit. Between two units the direction most of their edges run wins (the other
// edges do not order them); cycles through three or more units are broken where a depth-first
// search closes them. Then the units are taken in a topological order, earliest made first among
// those free: each top-level cluster gets a tier of its own after the previous cluster's (two
// groups fed by the same one still read one after the other), a node outside clusters the tier
// after its deepest predecessor's.
std::vector<int> unit_tiers(const UnitEdges& weight, size_t count, int cluster_units) {
  Adjacency majority(count);
  for (const auto& [key, forward] : weight) {
    const auto a = static_cast<std::uint32_t>(key >> 32), b = static_cast<std::uint32_t>(key);
    const auto back = weight.find(pair_key(b, a));
    const int backward = back == weight.end() ? 0 : back->second;
    if (forward > backward || (forward == backward && a < b))
      majority[a].push_back(static_cast<int>(b));
  }
  for (auto& targets : majority)  // the hash map's order must not decide the search below
    std::sort(targets.begin(), targets.end());
  const Adjacency dag = acyclic(majority, BackEdges::drop);
  std::vector<int> in_degree(count, 0);
  for (const auto& targets : dag) {
    for (int target : targets)
      ++in_degree[static_cast<size_t>(target)];
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> free;
  for (size_t u = 0; u < count; ++u) {
    if (in_degree[u] == 0) free.push(static_cast<int>(u));
  }
  std::vector<int> tier(count, 0);
  int last_cluster_tier = -1;
  while (!free.empty()) {
    const auto u = static_cast<size_t>(free.top());
    free.pop();
    if (static_cast<int>(u) < cluster_units) {
      tier[u] = std::max(tier[u], last_cluster_tier + 1);
      last_cluster_tier = tier[u];
    }
    for (int target : dag[u]) {
      const auto t = static_cast<size_t>(target);
      tier[t] = std::max(tier[t], tier[u] + 1);
      if (--in_degree[t] == 0) free.push(target);
    }
  }
  return tier;
}

}  // namespace

std::vector<int> tier_ranks(const IndexedGraph& graph, size_t node_count) {
  if (graph.clusters_parents_first.empty()) return {};
  int unit_count = 0, cluster_units = 0;
  const std::vector<int> unit = units_of(graph, node_count, unit_count, cluster_units);
  UnitEdges unit_weight;
  Adjacency local_edges(node_count);
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const auto s = static_cast<size_t>(edge.source), t = static_cast<size_t>(edge.target);
    if (s == t) continue;
    if (unit[s] == unit[t]) {
      local_edges[s].push_back(edge.target);
    } else {
      ++unit_weight[pair_key(static_cast<std::uint32_t>(unit[s]),
                             static_cast<std::uint32_t>(unit[t]))];
    }
  }
  const std::vector<int> tier =
      unit_tiers(unit_weight, static_cast<size_t>(unit_count), cluster_units);
  std::vector<int> local = layers_without_cycles(local_edges);
  // Where each node's edges from other units come from: an earlier tier or a later one.
  std::vector<char> fed_from_earlier(node_count, 0), fed_from_later(node_count, 0);
  std::vector<char> local_predecessor(node_count, 0);
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const auto s = static_cast<size_t>(edge.source), t = static_cast<size_t>(edge.target);
    if (s == t) continue;
    if (unit[s] == unit[t]) {
      local_predecessor[t] = 1;
      continue;
    }
    const int from = tier[static_cast<size_t>(unit[s])], to = tier[static_cast<size_t>(unit[t])];
    if (from < to) fed_from_earlier[t] = 1;
    if (from > to) fed_from_later[t] = 1;
  }
  const int tiers = unit_count == 0 ? 0 : *std::max_element(tier.begin(), tier.end()) + 1;
  std::vector<int> depth(static_cast<size_t>(tiers), 0);  // ranks the deepest unit of a tier takes
  for (size_t n = 0; n < node_count; ++n) {
    int& d = depth[static_cast<size_t>(tier[static_cast<size_t>(unit[n])])];
    d = std::max(d, local[n] + 1);
  }
  // A node fed only from a later tier (an event consumer fed by a queue in the data tier), with
  // no edge inside its unit, goes to its tier's last rank: next to what feeds it, so its edges
  // do not run back across the whole tier.
  for (size_t n = 0; n < node_count; ++n) {
    if (!fed_from_later[n] || fed_from_earlier[n] || local[n] != 0 || !local_edges[n].empty())
      continue;
    if (!local_predecessor[n])
      local[n] = depth[static_cast<size_t>(tier[static_cast<size_t>(unit[n])])] - 1;
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
