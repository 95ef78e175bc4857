#include "domains/drawio/layout/tier_order.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace fcp::drawio::layout::detail {
namespace {

constexpr int kSweeps = 4;
// Edge pairs the ordering may test for crossings in all (a count, not a time, so the same graph
// always gets the same order): at most about 0.5 s; the 200-shape diagram needs less. A larger
// diagram keeps what was improved by then.
constexpr long long kPairBudget = 50'000'000;
constexpr double kShorter = 0.5;  // px an order must save to count as shorter
// px the shapes of a run keep apart at least when they are packed into the band of the tiers
// they connect to: room for one lane between two shapes, kShapeClearance off each.
constexpr double kPackedGap = 3 * kShapeClearance;

// Nodes of one cluster in one row, in their order across the rank axis, and the gaps between
// the places they take.
struct Run {
  std::vector<int> nodes;
  std::vector<double> gaps;  // gaps[i]: between the i-th and the (i+1)-th place
  double start = 0;
  // Where the run's nodes may go across the rank axis: clear of the row's other nodes and of the
  // clusters that are not its own, the smallest gap away (unbounded where there are none), and
  // the gap they keep between each other.
  double min_lo = -std::numeric_limits<double>::infinity();
  double max_hi = std::numeric_limits<double>::infinity();
  double gap = 0;
};

class Orderer {
 public:
  Orderer(Drawing& drawing, const IndexedGraph& graph, const std::vector<std::optional<Box>>& held,
          bool tiers_free, bool pack)
      : drawing_(drawing),
        graph_(graph),
        held_(held),
        across_x_(drawing.vertical_ranks),
        tiers_free_(tiers_free),
        pack_(pack) {
    incident_.resize(drawing.nodes.size());
    node_tier_.assign(drawing.nodes.size(), -1);
    for (size_t n = 0; n < drawing.nodes.size(); ++n) {
      int tier = graph.node_cluster[n];
      while (tier >= 0 && graph.cluster_parent[static_cast<size_t>(tier)] >= 0)
        tier = graph.cluster_parent[static_cast<size_t>(tier)];
      node_tier_[n] = tier;
    }
    for (size_t e = 0; e < graph.edges.size(); ++e) {
      const IndexedGraph::Edge& edge = graph.edges[e];
      if (edge.source == edge.target) continue;
      incident_[static_cast<size_t>(edge.source)].push_back(e);
      incident_[static_cast<size_t>(edge.target)].push_back(e);
    }
  }

  OrderFigures run() {
    OrderFigures figures;
    figures.crossings_before = total_crossings();
    figures.length_before = total_length();
    budget_ -= static_cast<long long>(graph_.edges.size() * graph_.edges.size());
    std::vector<Run> runs = find_runs();
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
      bool changed = false;
      // Forward, then backward: each row's order then sees its neighbours' new orders.
      for (size_t k = 0; k < runs.size(); ++k) {
        Run& run = runs[sweep % 2 == 0 ? k : runs.size() - 1 - k];
        changed = improve(run) || changed;
      }
      figures.changed = figures.changed || changed;
      if (!changed) break;
    }
    figures.crossings_after = total_crossings();
    figures.length_after = total_length();
    return figures;
  }

  // Slides up the tail of each run that ends past its neighbours' band: from the run's end, the
  // nodes whose centres lie past their barycentres, each toward its barycentre but no nearer the
  // node before it than `gap` (or the run's own gap where that is smaller). Nothing else moves.
  // Returns whether a node moved.
  bool compact_tails(double gap, size_t most) {
    bool changed = false;
    for (const Run& run : find_runs()) {
      const size_t n = run.nodes.size();
      if (run.gap < 0 || n < 2) continue;
      const std::optional<std::pair<double, double>> band = neighbour_band(run);
      if (!band || hi(drawing_.nodes[static_cast<size_t>(run.nodes.back())]) <= band->second)
        continue;
      size_t first = n;
      while (first > 1 && n - first < most) {
        const int node = run.nodes[first - 1];
        if (mid(drawing_.nodes[static_cast<size_t>(node)]) <= barycentre(run, node) + kShorter)
          break;
        --first;
      }
      for (size_t k = first; k < n; ++k) {
        Box& box = drawing_.nodes[static_cast<size_t>(run.nodes[k])];
        const Box& before = drawing_.nodes[static_cast<size_t>(run.nodes[k - 1])];
        const double wanted = barycentre(run, run.nodes[k]) - size(box) / 2;
        const double start =
            std::min(lo(box), std::max(hi(before) + std::min(gap, run.gap), wanted));
        if (start < lo(box) - kShorter) {
          (across_x_ ? box.x : box.y) = start;
          changed = true;
        }
      }
    }
    return changed;
  }

 private:
  double lo(const Box& box) const { return across_x_ ? box.x : box.y; }
  double hi(const Box& box) const { return across_x_ ? box.right() : box.bottom(); }
  double size(const Box& box) const { return across_x_ ? box.w : box.h; }
  double mid(const Box& box) const { return across_x_ ? box.cx() : box.cy(); }
  // Where a node will be: a held node where it is held, any other where it is now.
  const Box& box_of(int node) const {
    const auto n = static_cast<size_t>(node);
    return n < held_.size() && held_[n] ? *held_[n] : drawing_.nodes[n];
  }
  Point2 centre(int node) const {
    const Box& box = box_of(node);
    return Point2{box.cx(), box.cy()};
  }

  bool ancestor_of(int cluster, int of) const {
    for (int c = of; c >= 0; c = graph_.cluster_parent[static_cast<size_t>(c)]) {
      if (c == cluster) return true;
    }
    return false;
  }

  // Runs of the nodes of one innermost cluster, side by side in a row, with nothing else of the
  // row and no other cluster between them. A run of one node is only moved level with its
  // neighbours, kept the smallest gap of the longer runs from the row's other nodes and clusters
  // (none without longer runs).
  std::vector<Run> find_runs() const {
    std::vector<Run> runs;
    std::vector<std::pair<const Row*, int>> of;  // per run: its row and cluster
    for (const Row& row : drawing_.rows) {
      std::vector<int> nodes = row.nodes;
      std::sort(nodes.begin(), nodes.end(), [&](int a, int b) {
        return lo(drawing_.nodes[static_cast<size_t>(a)]) <
               lo(drawing_.nodes[static_cast<size_t>(b)]);
      });
      for (size_t i = 0; i < nodes.size();) {
        const int cluster = graph_.node_cluster[static_cast<size_t>(nodes[i])];
        size_t j = i + 1;
        while (j < nodes.size() && graph_.node_cluster[static_cast<size_t>(nodes[j])] == cluster)
          ++j;
        if (cluster >= 0 && clear(row, cluster, nodes, i, j)) {
          Run run;
          run.nodes.assign(nodes.begin() + static_cast<std::ptrdiff_t>(i),
                           nodes.begin() + static_cast<std::ptrdiff_t>(j));
          run.start = lo(drawing_.nodes[static_cast<size_t>(run.nodes.front())]);
          for (size_t k = 0; k + 1 < run.nodes.size(); ++k) {
            run.gaps.push_back(lo(drawing_.nodes[static_cast<size_t>(run.nodes[k + 1])]) -
                               hi(drawing_.nodes[static_cast<size_t>(run.nodes[k])]));
          }
          runs.push_back(std::move(run));
          of.emplace_back(&row, cluster);
        }
        i = j;
      }
    }
    double smallest = -1;
    for (const Run& run : runs) {
      for (double gap : run.gaps) {
        if (gap >= 0 && (smallest < 0 || gap < smallest)) smallest = gap;
      }
    }
    std::vector<Run> kept;
    for (size_t r = 0; r < runs.size(); ++r) {
      Run& run = runs[r];
      if (run.gaps.empty() && smallest < 0) continue;
      run.gap = run.gaps.empty() ? smallest : *std::min_element(run.gaps.begin(), run.gaps.end());
      bound(*of[r].first, of[r].second, run);
      kept.push_back(std::move(run));
    }
    return kept;
  }

  // Whether the other nodes of `cluster` in this row are all in [i, j) (the run is the whole
  // of the cluster in the row) and no cluster that is not an ancestor lies across the run.
  bool clear(const Row& row, int cluster, const std::vector<int>& nodes, size_t i, size_t j) const {
    for (size_t k = 0; k < nodes.size(); ++k) {
      if ((k < i || k >= j) && graph_.node_cluster[static_cast<size_t>(nodes[k])] == cluster)
        return false;
      const auto n = static_cast<size_t>(nodes[k]);
      if (k >= i && k < j && n < held_.size() && held_[n]) return false;  // put back later
    }
    const double from = lo(drawing_.nodes[static_cast<size_t>(nodes[i])]);
    const double to = hi(drawing_.nodes[static_cast<size_t>(nodes[j - 1])]);
    for (size_t c = 0; c < drawing_.clusters.size(); ++c) {
      const std::optional<Box>& box = drawing_.clusters[c];
      if (!box || ancestor_of(static_cast<int>(c), cluster)) continue;
      const double rank_lo = across_x_ ? box->y : box->x;
      const double rank_hi = across_x_ ? box->bottom() : box->right();
      if (rank_lo < row.hi && row.lo < rank_hi && lo(*box) < to && from < hi(*box)) return false;
    }
    return true;
  }

  // The room of a run: between the row's nodes and the clusters (not its own or an ancestor)
  // across the row before and after it, the run's smallest gap away from them.
  void bound(const Row& row, int cluster, Run& run) const {
    if (run.gap < 0) return;  // overlapping places: the run keeps them
    const double from = run.start;
    const double to = hi(drawing_.nodes[static_cast<size_t>(run.nodes.back())]);
    auto obstacle = [&](const Box& box) {
      if (hi(box) <= from) run.min_lo = std::max(run.min_lo, hi(box) + run.gap);
      if (lo(box) >= to) run.max_hi = std::min(run.max_hi, lo(box) - run.gap);
    };
    for (int node : row.nodes) {
      if (std::find(run.nodes.begin(), run.nodes.end(), node) == run.nodes.end())
        obstacle(drawing_.nodes[static_cast<size_t>(node)]);
    }
    // Within the extent of its tier's nodes (the outermost cluster's): the tier keeps its size;
    // or, with tiers free, within the extent of all clustered nodes: the drawing keeps its size.
    int tier = cluster;
    while (graph_.cluster_parent[static_cast<size_t>(tier)] >= 0)
      tier = graph_.cluster_parent[static_cast<size_t>(tier)];
    double tier_lo = std::numeric_limits<double>::infinity();
    double tier_hi = -std::numeric_limits<double>::infinity();
    for (size_t n = 0; n < drawing_.nodes.size(); ++n) {
      const int of = graph_.node_cluster[n];
      if (of < 0 || (!tiers_free_ && !ancestor_of(tier, of))) continue;
      tier_lo = std::min(tier_lo, lo(drawing_.nodes[n]));
      tier_hi = std::max(tier_hi, hi(drawing_.nodes[n]));
    }
    run.min_lo = std::max(run.min_lo, tier_lo);
    run.max_hi = std::min(run.max_hi, tier_hi);
    for (size_t c = 0; c < drawing_.clusters.size(); ++c) {
      const std::optional<Box>& box = drawing_.clusters[c];
      if (!box || ancestor_of(static_cast<int>(c), cluster)) continue;
      const double rank_lo = across_x_ ? box->y : box->x;
      const double rank_hi = across_x_ ? box->bottom() : box->right();
      if (rank_lo < row.hi && row.lo < rank_hi) obstacle(*box);
    }
  }

  // The barycentre of each node: the mean place across the rank axis of the nodes it connects
  // to outside the run; its own centre when it connects to none.
  double barycentre(const Run& run, int node) const {
    double sum = 0;
    int count = 0;
    for (size_t e : incident_[static_cast<size_t>(node)]) {
      const IndexedGraph::Edge& edge = graph_.edges[e];
      const int other = edge.source == node ? edge.target : edge.source;
      if (std::find(run.nodes.begin(), run.nodes.end(), other) != run.nodes.end()) continue;
      sum += mid(box_of(other));
      ++count;
    }
    return count > 0 ? sum / count : mid(drawing_.nodes[static_cast<size_t>(node)]);
  }

  // The band across the rank axis of the tiers the run's nodes connect to outside their own
  // (the extent of all their nodes; a node outside every cluster counts alone); nullopt when
  // they connect to none.
  std::optional<std::pair<double, double>> neighbour_band(const Run& run) const {
    const int own = node_tier_[static_cast<size_t>(run.nodes.front())];
    std::vector<int> tiers;
    std::optional<std::pair<double, double>> band;
    auto add = [&band, this](int node) {
      const Box& box = box_of(node);
      band = band ? std::pair{std::min(band->first, lo(box)), std::max(band->second, hi(box))}
                  : std::pair{lo(box), hi(box)};
    };
    for (int node : run.nodes) {
      for (size_t e : incident_[static_cast<size_t>(node)]) {
        const IndexedGraph::Edge& edge = graph_.edges[e];
        const int other = edge.source == node ? edge.target : edge.source;
        const int tier = node_tier_[static_cast<size_t>(other)];
        if (tier < 0) {
          add(other);
        } else if (tier != own && std::find(tiers.begin(), tiers.end(), tier) == tiers.end()) {
          tiers.push_back(tier);
        }
      }
    }
    for (size_t n = 0; n < drawing_.nodes.size(); ++n) {
      const int tier = node_tier_[n];
      if (tier >= 0 && std::find(tiers.begin(), tiers.end(), tier) != tiers.end())
        add(static_cast<int>(n));
    }
    return band;
  }

  // Starts for the nodes of `order`, each as near its barycentre as the order, the gap between
  // neighbours and the room allow (least squares: the differences to the barycentres with their
  // offsets taken out, made non-decreasing by pooling adjacent violators, then held in the
  // room). The gap is the run's own, unless the run would then be longer than the band of the
  // tiers it connects to (a column of stores next to a shorter column of services): then the
  // nodes pack as close as makes them fit, down to kPackedGap, and stay in the band when they
  // fit it. Empty when the nodes do not fit in the room.
  std::vector<double> level_starts(const Run& run, const std::vector<int>& order) const {
    const size_t n = order.size();
    double total = 0;
    for (int node : order)
      total += size(drawing_.nodes[static_cast<size_t>(node)]);
    double gap = run.gap;
    double min_lo = run.min_lo, max_hi = run.max_hi;
    if (pack_ && n > 1) {
      if (const auto band = neighbour_band(run)) {
        const double spare = band->second - band->first - total;
        const auto between = static_cast<double>(n - 1);
        if (total + gap * between > band->second - band->first)
          gap = std::clamp(spare / between, std::min(kPackedGap, run.gap), run.gap);
        const double in_lo = std::max(min_lo, band->first);
        const double in_hi = std::min(max_hi, band->second);
        if (in_hi - in_lo >= total + gap * between - kShorter) {
          min_lo = in_lo;
          max_hi = std::max(in_hi, in_lo + total + gap * between);
        }
      }
    }
    std::vector<double> offset(n, 0), target(n);
    for (size_t k = 0; k < n; ++k) {
      const Box& box = drawing_.nodes[static_cast<size_t>(order[k])];
      if (k > 0) {
        offset[k] = offset[k - 1] + size(drawing_.nodes[static_cast<size_t>(order[k - 1])]) + gap;
      }
      target[k] = barycentre(run, order[k]) - size(box) / 2 - offset[k];
    }
    const double last = offset.back() + size(drawing_.nodes[static_cast<size_t>(order.back())]);
    if (max_hi - min_lo < last) return {};
    // Blocks of pooled values: mean and count.
    std::vector<std::pair<double, size_t>> blocks;
    for (double value : target) {
      blocks.emplace_back(value, 1);
      while (blocks.size() >= 2 && blocks[blocks.size() - 2].first > blocks.back().first) {
        const auto [mean, count] = blocks.back();
        blocks.pop_back();
        auto& before = blocks.back();
        const auto sum = static_cast<double>(before.second + count);
        before.first = (before.first * static_cast<double>(before.second) +
                        mean * static_cast<double>(count)) /
                       sum;
        before.second += count;
      }
    }
    std::vector<double> starts;
    for (const auto& [mean, count] : blocks) {
      const double held = std::clamp(mean, min_lo, max_hi - last);
      for (size_t k = 0; k < count; ++k)
        starts.push_back(held + offset[starts.size()]);
    }
    return starts;
  }

  // Puts the run's nodes in `order` level with their barycentres where the run has a gap of its
  // own (see level_starts), else into its places.
  void place_level(Run& run, const std::vector<int>& order) {
    if (run.gap >= 0) {
      const std::vector<double> starts = level_starts(run, order);
      if (!starts.empty()) {
        for (size_t k = 0; k < order.size(); ++k)
          (across_x_ ? drawing_.nodes[static_cast<size_t>(order[k])].x
                     : drawing_.nodes[static_cast<size_t>(order[k])].y) = starts[k];
        run.nodes = order;
        return;
      }
    }
    place(run, order);
  }

  // Puts the run's nodes into its places in `order`.
  void place(Run& run, const std::vector<int>& order) {
    double cursor = run.start;
    for (size_t k = 0; k < order.size(); ++k) {
      Box& box = drawing_.nodes[static_cast<size_t>(order[k])];
      (across_x_ ? box.x : box.y) = cursor;
      cursor += size(box) + (k < run.gaps.size() ? run.gaps[k] : 0);
    }
    run.nodes = order;
  }

  static bool lines_cross(Point2 a, Point2 b, Point2 c, Point2 d) {
    auto side = [](Point2 o, Point2 p, Point2 q) {
      return (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
    };
    const double d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
  }
  bool edges_cross(size_t e, size_t f) const {
    const IndexedGraph::Edge& a = graph_.edges[e];
    const IndexedGraph::Edge& b = graph_.edges[f];
    if (a.source == b.source || a.source == b.target || a.target == b.source ||
        a.target == b.target)
      return false;
    return lines_cross(centre(a.source), centre(a.target), centre(b.source), centre(b.target));
  }
  double length(size_t e) const {
    const IndexedGraph::Edge& edge = graph_.edges[e];
    return std::abs(mid(box_of(edge.source)) - mid(box_of(edge.target)));
  }
  int total_crossings() const {
    int count = 0;
    for (size_t e = 0; e < graph_.edges.size(); ++e) {
      if (graph_.edges[e].source == graph_.edges[e].target) continue;
      for (size_t f = e + 1; f < graph_.edges.size(); ++f) {
        if (graph_.edges[f].source != graph_.edges[f].target && edges_cross(e, f)) ++count;
      }
    }
    return count;
  }
  double total_length() const {
    double sum = 0;
    for (size_t e = 0; e < graph_.edges.size(); ++e) {
      if (graph_.edges[e].source != graph_.edges[e].target) sum += length(e);
    }
    return sum;
  }

  // Crossings and length of the edges at the run's nodes (a crossing of two of them counted
  // twice, alike before and after).
  std::pair<int, double> local_cost(const std::vector<size_t>& edges) {
    budget_ -= static_cast<long long>(edges.size() * graph_.edges.size());
    int crossings = 0;
    double sum = 0;
    for (size_t e : edges) {
      sum += length(e);
      for (size_t f = 0; f < graph_.edges.size(); ++f) {
        if (f != e && graph_.edges[f].source != graph_.edges[f].target && edges_cross(e, f))
          ++crossings;
      }
    }
    return {crossings, sum};
  }

  // Tries the nodes level with their barycentres in their order, in the barycentre order, then
  // with neighbours swapped; keeps what is better. Returns whether a node of the run moved.
  bool improve(Run& run) {
    std::vector<size_t> edges;
    for (int node : run.nodes) {
      const auto& at = incident_[static_cast<size_t>(node)];
      edges.insert(edges.end(), at.begin(), at.end());
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    if (edges.empty() || budget_ <= 0) return false;
    auto where = [&](const std::vector<int>& nodes) {
      std::vector<double> starts;
      for (int node : nodes)
        starts.push_back(lo(drawing_.nodes[static_cast<size_t>(node)]));
      return starts;
    };
    const std::vector<int> original = run.nodes;
    const std::vector<double> original_starts = where(original);
    auto best = local_cost(edges);
    auto better = [](std::pair<int, double> a, std::pair<int, double> b) {
      return a.first < b.first || (a.first == b.first && a.second < b.second - kShorter);
    };
    auto attempt = [&](const std::vector<int>& order) {
      if (budget_ <= 0) return false;
      const std::vector<int> kept = run.nodes;
      const std::vector<double> kept_starts = where(kept);
      place_level(run, order);
      const auto cost = local_cost(edges);
      if (better(cost, best)) {
        best = cost;
        return true;
      }
      for (size_t k = 0; k < kept.size(); ++k) {
        Box& box = drawing_.nodes[static_cast<size_t>(kept[k])];
        (across_x_ ? box.x : box.y) = kept_starts[k];
      }
      run.nodes = kept;
      return false;
    };
    attempt(run.nodes);
    std::vector<std::pair<double, int>> keyed;
    for (int node : run.nodes)
      keyed.emplace_back(barycentre(run, node), node);
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<int> by_barycentre;
    for (const auto& [key, node] : keyed)
      by_barycentre.push_back(node);
    if (by_barycentre != run.nodes) attempt(by_barycentre);
    for (bool swapped = true; swapped;) {
      swapped = false;
      for (size_t k = 0; k + 1 < run.nodes.size(); ++k) {
        std::vector<int> order = run.nodes;
        std::swap(order[k], order[k + 1]);
        swapped = attempt(order) || swapped;
      }
    }
    if (run.nodes != original) return true;
    const std::vector<double> now = where(run.nodes);
    for (size_t k = 0; k < now.size(); ++k) {
      if (std::abs(now[k] - original_starts[k]) > kShorter) return true;
    }
    return false;
  }

  Drawing& drawing_;
  const IndexedGraph& graph_;
  const std::vector<std::optional<Box>>& held_;
  bool across_x_;
  bool tiers_free_;
  bool pack_;  // runs longer than their neighbours' band pack into it
  std::vector<std::vector<size_t>> incident_;
  std::vector<int> node_tier_;  // outermost cluster per node, -1 outside every cluster
  long long budget_ = kPairBudget;
};

}  // namespace

OrderFigures order_within_clusters(Drawing& drawing, const IndexedGraph& graph,
                                   const std::vector<std::optional<Box>>& held, TierRoom tiers,
                                   RunGaps gaps) {
  if (drawing.rows.empty() || drawing.node_row.size() != drawing.nodes.size()) return {};
  return Orderer(drawing, graph, held, tiers == TierRoom::free, gaps == RunGaps::packed).run();
}

bool compact_run_tails(Drawing& drawing, const IndexedGraph& graph,
                       const std::vector<std::optional<Box>>& held, double gap, size_t most) {
  if (drawing.rows.empty() || drawing.node_row.size() != drawing.nodes.size()) return false;
  return Orderer(drawing, graph, held, false, false).compact_tails(gap, most);
}

}  // namespace fcp::drawio::layout::detail
