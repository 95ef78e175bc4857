#include "domains/drawio/layout/dag.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace fcp::drawio::layout::detail {

Adjacency acyclic(const Adjacency& out, BackEdges back_edges) {
  const std::size_t count = out.size();
  enum : char { unseen, open, done };
  std::vector<char> state(count, unseen);
  Adjacency dag(count);
  std::vector<std::pair<int, std::size_t>> stack;  // node, next out-edge
  for (std::size_t root = 0; root < count; ++root) {
    if (state[root] != unseen) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    state[root] = open;
    while (!stack.empty()) {
      const int node = stack.back().first;
      const auto n = static_cast<std::size_t>(node);
      std::size_t& next = stack.back().second;
      if (next == out[n].size()) {
        state[n] = done;
        stack.pop_back();
        continue;
      }
      const int target = out[n][next++];
      const auto t = static_cast<std::size_t>(target);
      if (state[t] == open) {  // closes a cycle
        if (back_edges == BackEdges::reverse) dag[t].push_back(node);
        continue;
      }
      dag[n].push_back(target);
      if (state[t] == unseen) {
        state[t] = open;
        stack.emplace_back(target, 0);
      }
    }
  }
  return dag;
}

std::vector<int> longest_path_layers(const Adjacency& dag) {
  const std::size_t count = dag.size();
  std::vector<int> in_degree(count, 0);
  for (const auto& targets : dag) {
    for (int target : targets)
      ++in_degree[static_cast<std::size_t>(target)];
  }
  std::vector<int> order;
  for (std::size_t i = 0; i < count; ++i) {
    if (in_degree[i] == 0) order.push_back(static_cast<int>(i));
  }
  std::vector<int> layer(count, 0);
  for (std::size_t next = 0; next < order.size(); ++next) {
    const auto n = static_cast<std::size_t>(order[next]);
    for (int target : dag[n]) {
      const auto t = static_cast<std::size_t>(target);
      layer[t] = std::max(layer[t], layer[n] + 1);
      if (--in_degree[t] == 0) order.push_back(target);
    }
  }
  return layer;
}

}  // namespace fcp::drawio::layout::detail
