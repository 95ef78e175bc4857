// Groups as tiers: the order follows the direction most edges between two groups run, not the
// order the edges were made in, and every group is a tier of its own.
#include "domains/drawio/layout/tier_ranks.hpp"

#include <gtest/gtest.h>

namespace fcp::drawio::layout::detail {
namespace {

// Clusters 0..groups-1 with `per_group` nodes each, in order (node n is in cluster n / per_group).
IndexedGraph grouped(int groups, int per_group) {
  IndexedGraph graph;
  for (int c = 0; c < groups; ++c) {
    graph.cluster_parent.push_back(-1);
    graph.clusters_parents_first.push_back(c);
    graph.cluster_children.emplace_back();
    graph.cluster_nodes.emplace_back();
    for (int i = 0; i < per_group; ++i) {
      graph.cluster_nodes.back().push_back(static_cast<int>(graph.node_cluster.size()));
      graph.node_cluster.push_back(c);
    }
  }
  return graph;
}

int group_rank(const std::vector<int>& rank, int group, int per_group) {
  return rank[static_cast<size_t>(group) * static_cast<size_t>(per_group)];
}

TEST(TierRanks, TheDirectionMostEdgesRunOrdersTwoGroupsWhateverTheOrderTheyWereMadeIn) {
  // Groups: 0 Data (made first), 1 Services. Three Data → Services edges, five the other way:
  // Services comes first although a search from Data meets Data → Services first.
  IndexedGraph graph = grouped(2, 5);
  for (int i = 0; i < 3; ++i)
    graph.edges.push_back({i, 5 + i});
  for (int i = 0; i < 5; ++i)
    graph.edges.push_back({5 + i, i});
  const auto rank = tier_ranks(graph, graph.node_cluster.size());
  EXPECT_LT(group_rank(rank, 1, 5), group_rank(rank, 0, 5));
}

TEST(TierRanks, TwoGroupsFedByTheSameOneAreTiersOfTheirOwnInTheOrderMade) {
  // Services feeds both Data and External: three tiers, Data before External.
  IndexedGraph graph = grouped(3, 2);
  graph.edges = {{0, 2}, {1, 4}, {0, 5}};
  const auto rank = tier_ranks(graph, graph.node_cluster.size());
  EXPECT_LT(group_rank(rank, 0, 2), group_rank(rank, 1, 2));
  EXPECT_LT(group_rank(rank, 1, 2), group_rank(rank, 2, 2));
}

TEST(TierRanks, AConsumerFedOnlyByALaterTierSitsAtTheEndOfItsTier) {
  // Services (0: Gateway-fed Trip, 1: Dispatch, 2: Notifications, 3: Risk) then Data (4: Kafka,
  // 5: Users DB). Trip -> Dispatch makes Services two ranks deep. Notifications and Risk are fed
  // by Kafka only: they go to the last rank of Services, next to Kafka, not to its first one.
  IndexedGraph graph = grouped(2, 4);
  graph.node_cluster.resize(6, 1);
  graph.cluster_nodes[1] = {4, 5};
  graph.edges = {{0, 1}, {0, 4}, {4, 2}, {4, 3}, {3, 5}, {1, 5}};
  const auto rank = tier_ranks(graph, graph.node_cluster.size());
  EXPECT_EQ(rank[0], 0);  // Trip: first
  EXPECT_EQ(rank[1], 1);  // Dispatch: after Trip
  EXPECT_EQ(rank[2], 1);  // Notifications: the last rank of Services
  EXPECT_EQ(rank[3], 1);  // Risk too
  EXPECT_EQ(rank[4], 2);  // Kafka: Data starts after Services
}

}  // namespace
}  // namespace fcp::drawio::layout::detail
