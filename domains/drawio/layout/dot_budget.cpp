#include "domains/drawio/layout/dot_budget.hpp"

#include <algorithm>
#include <utility>

#include "domains/drawio/layout/dag.hpp"

namespace fcp::drawio::layout::detail {
namespace {

// Measured with Graphviz 2.43 on a 2-core build machine.
constexpr double kPositionWork = 1.5e7;  // ~1 s: auxiliary-graph nodes × x-coordinate iterations
constexpr double kIterationsPerNode = 0.7;  // iterations the simplex takes, per auxiliary node
constexpr double kCrossingNodes = 5000;     // virtual nodes mincross handles at full effort
constexpr double kSplineNodes = 10000;      // virtual nodes the spline router handles (~1 s)

// The graph's edges as a DAG: edges that close a cycle in a depth-first search are reversed.
Adjacency edges_as_dag(const IndexedGraph& graph, size_t count) {
  Adjacency out(count);
  for (const IndexedGraph::Edge& edge : graph.edges) {
    if (edge.source != edge.target) out[static_cast<size_t>(edge.source)].push_back(edge.target);
  }
  return acyclic(out, BackEdges::reverse);
}

// Total of (span − 1) over the edges when each node sits one rank below its deepest predecessor.
double virtual_nodes(const Adjacency& dag) {
  const size_t count = dag.size();
  const std::vector<int> rank = longest_path_layers(dag);
  double total = 0;
  for (size_t n = 0; n < count; ++n) {
    for (int target : dag[n])
      total += rank[static_cast<size_t>(target)] - rank[n] - 1;
  }
  return total;
}

}  // namespace

DotBudget dot_budget(const IndexedGraph& graph, size_t node_count) {
  const Adjacency dag = edges_as_dag(graph, node_count);
  Adjacency reversed(node_count);
  for (size_t n = 0; n < node_count; ++n) {
    for (int target : dag[n])
      reversed[static_cast<size_t>(target)].push_back(static_cast<int>(n));
  }
  const double dummies = std::min(virtual_nodes(dag), virtual_nodes(reversed));
  // The x-coordinate graph holds every real and virtual node plus a slack node per edge.
  const double aux = 2 * (static_cast<double>(node_count) + dummies);
  DotBudget budget;
  // Left alone up to about two seconds of simplex work, then capped at about one.
  if (kIterationsPerNode * aux * aux > 2 * kPositionWork && node_count > 0) {
    const double iterations = std::max(kPositionWork / aux, 50.0);
    budget.nslimit = iterations / static_cast<double>(node_count);
  }
  if (dummies > kCrossingNodes) budget.mclimit = std::max(kCrossingNodes / dummies, 0.05);
  budget.route_splines = dummies <= kSplineNodes;
  return budget;
}

}  // namespace fcp::drawio::layout::detail
