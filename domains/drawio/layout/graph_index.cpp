// Validation of a layout request: every id known and unique, clusters nest without cycles.
#include <string>
#include <string_view>
#include <unordered_map>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {
namespace {

using IdMap = std::unordered_map<std::string_view, int>;

std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

template <class Item>
core::Result<IdMap> map_ids(const std::vector<Item>& items, std::string_view what) {
  IdMap ids;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!ids.emplace(items[i].id, static_cast<int>(i)).second) {
      return core::make_error("Layout: duplicate " + std::string(what) + " id " +
                              quoted(items[i].id));
    }
  }
  return ids;
}

core::Result<void> resolve_edges(const LayoutRequest& request, const IdMap& nodes,
                                 IndexedGraph& graph) {
  for (const LayoutEdge& edge : request.edges) {
    const auto source = nodes.find(edge.source);
    const auto target = nodes.find(edge.target);
    if (source == nodes.end() || target == nodes.end()) {
      const bool bad_source = source == nodes.end();
      return core::make_error("Layout: edge " + quoted(edge.id) + " has unknown " +
                              (bad_source ? "source" : "target") + " node " +
                              quoted(bad_source ? edge.source : edge.target));
    }
    graph.edges.push_back({source->second, target->second});
  }
  return {};
}

core::Result<void> resolve_clusters(const LayoutRequest& request, const IdMap& clusters,
                                    IndexedGraph& graph) {
  const size_t count = request.clusters.size();
  graph.cluster_parent.assign(count, -1);
  graph.cluster_children.assign(count, {});
  for (size_t i = 0; i < count; ++i) {
    const LayoutCluster& cluster = request.clusters[i];
    if (cluster.parent.empty()) continue;
    const auto parent = clusters.find(cluster.parent);
    if (parent == clusters.end()) {
      return core::make_error("Layout: cluster " + quoted(cluster.id) + " has unknown parent " +
                              quoted(cluster.parent));
    }
    graph.cluster_parent[i] = parent->second;
    graph.cluster_children[static_cast<size_t>(parent->second)].push_back(static_cast<int>(i));
  }
  // Parents first: a breadth-first walk from the top-level clusters; any cluster it never
  // reaches sits on a parent cycle.
  for (size_t i = 0; i < count; ++i) {
    if (graph.cluster_parent[i] < 0) graph.clusters_parents_first.push_back(static_cast<int>(i));
  }
  for (size_t next = 0; next < graph.clusters_parents_first.size(); ++next) {
    const auto& children =
        graph.cluster_children[static_cast<size_t>(graph.clusters_parents_first[next])];
    graph.clusters_parents_first.insert(graph.clusters_parents_first.end(), children.begin(),
                                        children.end());
  }
  if (graph.clusters_parents_first.size() != count) {
    std::vector<bool> reached(count, false);
    for (int cluster : graph.clusters_parents_first)
      reached[static_cast<size_t>(cluster)] = true;
    for (size_t i = 0; i < count; ++i) {
      if (!reached[i]) {
        return core::make_error("Layout: cluster " + quoted(request.clusters[i].id) +
                                " is its own ancestor (cluster parents form a cycle)");
      }
    }
  }
  return {};
}

core::Result<void> resolve_node_clusters(const LayoutRequest& request, const IdMap& clusters,
                                         IndexedGraph& graph) {
  graph.node_cluster.assign(request.nodes.size(), -1);
  graph.cluster_nodes.assign(request.clusters.size(), {});
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    const LayoutNode& node = request.nodes[i];
    if (node.cluster.empty()) continue;
    const auto cluster = clusters.find(node.cluster);
    if (cluster == clusters.end()) {
      return core::make_error("Layout: node " + quoted(node.id) + " is in unknown cluster " +
                              quoted(node.cluster));
    }
    graph.node_cluster[i] = cluster->second;
    graph.cluster_nodes[static_cast<size_t>(cluster->second)].push_back(static_cast<int>(i));
  }
  return {};
}

}  // namespace

core::Result<IndexedGraph> index_graph(const LayoutRequest& request) {
  auto nodes = map_ids(request.nodes, "node");
  if (!nodes) return nodes.error();
  auto clusters = map_ids(request.clusters, "cluster");
  if (!clusters) return clusters.error();
  IndexedGraph graph;
  if (auto ok = resolve_edges(request, *nodes, graph); !ok) return ok.error();
  if (auto ok = resolve_clusters(request, *clusters, graph); !ok) return ok.error();
  if (auto ok = resolve_node_clusters(request, *clusters, graph); !ok) return ok.error();
  return graph;
}

}  // namespace fcp::drawio::layout::detail
