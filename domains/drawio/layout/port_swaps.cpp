#include "domains/drawio/layout/port_swaps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "domains/drawio/layout/edge_labels.hpp"
#include "domains/drawio/layout/port_routes.hpp"

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kOnSide = 0.5;  // px a route's end may be off its box's side
// Parallel runs of two routes side by side: on one line (closer than kOneLine) for any length,
// or closer than kLane for more than kSideBySide px, are never made; lanes closer than kWideLane
// for more than kLongSideBySide px (they read as one bus) may not grow in number.
constexpr double kOneLine = 2;
constexpr double kLane = 12;  // the routes' own lane spacing (kTrackGap in edge_routes.cpp)
constexpr double kSideBySide = 20;
constexpr double kWideLane = 20;
constexpr double kLongSideBySide = 30;
// A swap reroutes two routes: at most this many are tried (a large diagram keeps the rest).
constexpr size_t kMaxTries = 200;
// A swapped pair may grow by this share of its length at most (a route round the block instead
// of through it is not worth a crossing).
constexpr double kLonger = 0.1;
constexpr double kMinRun = 15;  // px at least of a reshaped route's run into its port
// px round a route's ends and path within which a new route's search sees the shapes, and how
// many shapes there at most (the search's grid grows with their square: a route past more keeps
// its reshaped candidates only).
constexpr double kRerouteWindow = 200;
constexpr size_t kMaxRerouteShapes = 60;

// The side of `box` a route's end at `end` (the next point `next`) lies on and leaves straight
// out of: 0 right, 1 bottom, 2 left, 3 top; nullopt for none (a corner, or a run along it).
std::optional<int> side_of(const Box& box, Point2 end, Point2 next) {
  const bool flat = std::abs(next.y - end.y) < kOnSide;
  const bool upright = std::abs(next.x - end.x) < kOnSide;
  if (flat == upright) return std::nullopt;
  if (flat && std::abs(end.x - box.right()) < kOnSide && next.x > end.x) return 0;
  if (flat && std::abs(end.x - box.x) < kOnSide && next.x < end.x) return 2;
  if (upright && std::abs(end.y - box.bottom()) < kOnSide && next.y > end.y) return 1;
  if (upright && std::abs(end.y - box.y) < kOnSide && next.y < end.y) return 3;
  return std::nullopt;
}

int bends(const std::vector<Point2>& path) {
  int count = 0;
  for (size_t k = 1; k + 1 < path.size(); ++k) {
    const bool before = std::abs(path[k].y - path[k - 1].y) < kOnSide;
    const bool after = std::abs(path[k + 1].y - path[k].y) < kOnSide;
    if (before != after) ++count;
  }
  return count;
}

double length(const std::vector<Point2>& path) {
  double sum = 0;
  for (size_t k = 0; k + 1 < path.size(); ++k)
    sum += std::hypot(path[k + 1].x - path[k].x, path[k + 1].y - path[k].y);
  return sum;
}

int crossings(const std::vector<Point2>& a, const std::vector<Point2>& b) {
  int count = 0;
  for (size_t k = 0; k + 1 < a.size(); ++k) {
    for (size_t m = 0; m + 1 < b.size(); ++m) {
      if (segments_cross(a[k], a[k + 1], b[m], b[m + 1])) ++count;
    }
  }
  return count;
}

// Pairs of runs of the two paths side by side: {too close (see kLane), closer than kWideLane}.
std::pair<int, int> side_by_side(const std::vector<Point2>& a, const std::vector<Point2>& b) {
  std::pair<int, int> count{0, 0};
  for (size_t k = 0; k + 1 < a.size(); ++k) {
    for (size_t m = 0; m + 1 < b.size(); ++m) {
      for (const bool flat : {true, false}) {
        auto along = [flat](Point2 p) { return flat ? p.x : p.y; };
        auto across = [flat](Point2 p) { return flat ? p.y : p.x; };
        if (std::abs(across(a[k]) - across(a[k + 1])) > kOnSide ||
            std::abs(across(b[m]) - across(b[m + 1])) > kOnSide)
          continue;
        const double apart = std::abs(across(a[k]) - across(b[m]));
        if (apart >= kWideLane) continue;
        const double lo = std::max(std::min(along(a[k]), along(a[k + 1])),
                                   std::min(along(b[m]), along(b[m + 1])));
        const double hi = std::min(std::max(along(a[k]), along(a[k + 1])),
                                   std::max(along(b[m]), along(b[m + 1])));
        if ((apart < kOneLine && hi - lo > kOnSide) || (apart < kLane && hi - lo > kSideBySide))
          ++count.first;
        if (hi - lo > kLongSideBySide) ++count.second;
      }
    }
  }
  return count;
}

class Swapper {
 public:
  Swapper(const Drawing& drawing, const IndexedGraph& graph, std::vector<EdgeRoute>& routes)
      : drawing_(drawing), graph_(graph), routes_(routes), paths_(routes.size()) {
    for (size_t i = 0; i < routes.size(); ++i) {
      const IndexedGraph::Edge& edge = graph.edges[i];
      if (edge.source == edge.target) continue;
      paths_[i] = path_of(box(edge.source), box(edge.target), routes[i]);
    }
  }

  size_t run() {
    // (node, side) -> the routes' ends there: (edge, whether the end is its source).
    std::map<std::pair<int, int>, std::vector<std::pair<size_t, bool>>> sides;
    for (size_t i = 0; i < paths_.size(); ++i) {
      const std::vector<Point2>& path = paths_[i];
      if (path.size() < 2) continue;
      const IndexedGraph::Edge& edge = graph_.edges[i];
      if (const auto side = side_of(box(edge.source), path[0], path[1]))
        sides[{edge.source, *side}].emplace_back(i, true);
      const size_t n = path.size();
      if (const auto side = side_of(box(edge.target), path[n - 1], path[n - 2]))
        sides[{edge.target, *side}].emplace_back(i, false);
    }
    size_t kept = 0, tried = 0;
    for (const auto& side : sides) {
      const auto& ends = side.second;
      for (size_t p = 0; p < ends.size(); ++p) {
        for (size_t q = p + 1; q < ends.size(); ++q) {
          if (tried >= kMaxTries) return kept;
          const auto [a, a_source] = ends[p];
          const auto [b, b_source] = ends[q];
          if (a == b || crossings(paths_[a], paths_[b]) == 0) continue;
          ++tried;
          if (try_swap(a, a_source, b, b_source)) ++kept;
        }
      }
    }
    return kept;
  }

 private:
  const Box& box(int node) const { return drawing_.nodes[static_cast<size_t>(node)]; }

  static Point2 fraction(const Box& box, Point2 at) {
    return Point2{box.w > 0 ? (at.x - box.x) / box.w : 0.5,
                  box.h > 0 ? (at.y - box.y) / box.h : 0.5};
  }

  // The end of edge e's path at the source (or target) as a port, a fraction of its box.
  Point2 port(size_t e, bool source) const {
    const IndexedGraph::Edge& edge = graph_.edges[e];
    return source ? fraction(box(edge.source), paths_[e].front())
                  : fraction(box(edge.target), paths_[e].back());
  }

  // Whether a cluster holds the node (directly or through a child cluster).
  bool holds(size_t cluster, int node) const {
    for (int c = graph_.node_cluster[static_cast<size_t>(node)]; c >= 0;
         c = graph_.cluster_parent[static_cast<size_t>(c)]) {
      if (static_cast<size_t>(c) == cluster) return true;
    }
    return false;
  }

  // Clusters holding neither end of edge e that its path runs into.
  int foreign(size_t e, const std::vector<Point2>& path) const {
    const IndexedGraph::Edge& edge = graph_.edges[e];
    int count = 0;
    for (size_t c = 0; c < drawing_.clusters.size(); ++c) {
      const std::optional<Box>& cluster = drawing_.clusters[c];
      if (!cluster || holds(c, edge.source) || holds(c, edge.target)) continue;
      for (size_t k = 0; k + 1 < path.size(); ++k) {
        const Point2 a = path[k], b = path[k + 1];
        const double lo_x = std::min(a.x, b.x), hi_x = std::max(a.x, b.x);
        const double lo_y = std::min(a.y, b.y), hi_y = std::max(a.y, b.y);
        if (lo_x < cluster->right() && hi_x > cluster->x && lo_y < cluster->bottom() &&
            hi_y > cluster->y) {
          ++count;
          break;
        }
      }
    }
    return count;
  }

  // Edge e routed between the given ports, clear of every other shape; nullopt when none is.
  // The search sees the shapes near the route only (those within kRerouteWindow of its ends and
  // its present path, at most kMaxRerouteShapes: the grid search is quadratic in the shapes it
  // sees, and a 1 000-shape drawing made each try take a second); a route that strays past them
  // is checked against every shape.
  std::optional<std::vector<Point2>> reroute(size_t e, Point2 exit, Point2 entry) const {
    const IndexedGraph::Edge& edge = graph_.edges[e];
    auto cluster_box = [](const Box& b) { return ClusterBox{"", b.x, b.y, b.w, b.h}; };
    const Box& s = box(edge.source);
    const Box& t = box(edge.target);
    double lo_x = std::min(s.x, t.x), lo_y = std::min(s.y, t.y);
    double hi_x = std::max(s.right(), t.right()), hi_y = std::max(s.bottom(), t.bottom());
    for (const Point2& p : paths_[e]) {
      lo_x = std::min(lo_x, p.x);
      lo_y = std::min(lo_y, p.y);
      hi_x = std::max(hi_x, p.x);
      hi_y = std::max(hi_y, p.y);
    }
    std::vector<ClusterBox> obstacles;
    for (size_t n = 0; n < drawing_.nodes.size(); ++n) {
      if (static_cast<int>(n) == edge.source || static_cast<int>(n) == edge.target) continue;
      const Box& node = drawing_.nodes[n];
      if (node.right() < lo_x - kRerouteWindow || node.x > hi_x + kRerouteWindow ||
          node.bottom() < lo_y - kRerouteWindow || node.y > hi_y + kRerouteWindow)
        continue;
      obstacles.push_back(cluster_box(node));
    }
    if (obstacles.size() > kMaxRerouteShapes) return std::nullopt;
    const auto bends = route_between_ports({cluster_box(s), exit}, {cluster_box(t), entry},
                                           obstacles, kShapeClearance);
    if (!bends) return std::nullopt;
    std::vector<Point2> path{Point2{s.x + exit.x * s.w, s.y + exit.y * s.h}};
    path.insert(path.end(), bends->begin(), bends->end());
    path.push_back(Point2{t.x + entry.x * t.w, t.y + entry.y * t.h});
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      if (!clear_of_shapes(e, path[k], path[k + 1])) return std::nullopt;
    }
    return path;
  }

  // Crossings of the paths of a and b with every other route and with each other.
  int crossings_of(size_t a, const std::vector<Point2>& pa, size_t b,
                   const std::vector<Point2>& pb) const {
    int count = crossings(pa, pb);
    for (size_t e = 0; e < paths_.size(); ++e) {
      if (e == a || e == b || paths_[e].empty()) continue;
      count += crossings(pa, paths_[e]) + crossings(pb, paths_[e]);
    }
    return count;
  }

  // Side by side pairs of runs of the paths of a and b with every other route and each other.
  std::pair<int, int> side_by_side_of(size_t a, const std::vector<Point2>& pa, size_t b,
                                      const std::vector<Point2>& pb) const {
    std::pair<int, int> count = side_by_side(pa, pb);
    for (size_t e = 0; e < paths_.size(); ++e) {
      if (e == a || e == b || paths_[e].empty()) continue;
      for (const auto* path : {&pa, &pb}) {
        const auto [close, lanes] = side_by_side(*path, paths_[e]);
        count.first += close;
        count.second += lanes;
      }
    }
    return count;
  }

  // Whether a run of a reshaped path keeps clear of the shapes: kShapeClearance off every shape
  // that is not an end of edge e, out of its ends' insides.
  bool clear_of_shapes(size_t e, Point2 a, Point2 b) const {
    const IndexedGraph::Edge& edge = graph_.edges[e];
    const double lo_x = std::min(a.x, b.x), hi_x = std::max(a.x, b.x);
    const double lo_y = std::min(a.y, b.y), hi_y = std::max(a.y, b.y);
    for (size_t n = 0; n < drawing_.nodes.size(); ++n) {
      const Box& node = drawing_.nodes[n];
      const bool end = static_cast<int>(n) == edge.source || static_cast<int>(n) == edge.target;
      const double margin = end ? -kOnSide : kShapeClearance - kOnSide;
      if (lo_x < node.right() + margin && hi_x > node.x - margin && lo_y < node.bottom() + margin &&
          hi_y > node.y - margin)
        return false;
    }
    return true;
  }

  // Paths for edge e with its end at the source (target) moved to `to` on the same side: the
  // route kept up to one of its runs parallel to that side, which runs on (or stops short) to
  // the port's line and turns straight into it. Only those clear of the shapes whose last
  // (first) run is kMinRun long at least.
  std::vector<std::vector<Point2>> reshaped(size_t e, bool source, Point2 to) const {
    std::vector<Point2> path = paths_[e];
    if (source) std::reverse(path.begin(), path.end());
    std::vector<std::vector<Point2>> out;
    const size_t n = path.size();
    if (n < 3) return out;
    const bool flat = std::abs(path[n - 2].y - path[n - 1].y) < kOnSide;  // the last run
    const double from_side = flat ? path[n - 2].x - path[n - 1].x : path[n - 2].y - path[n - 1].y;
    for (size_t k = n - 2; k-- > 1;) {
      const Point2 a = path[k], b = path[k + 1];
      const bool parallel = flat ? std::abs(a.x - b.x) < kOnSide : std::abs(a.y - b.y) < kOnSide;
      if (!parallel) continue;
      const Point2 corner = flat ? Point2{a.x, to.y} : Point2{to.x, a.y};
      const double run = flat ? corner.x - to.x : corner.y - to.y;
      if (run * from_side <= 0 || std::abs(run) < kMinRun) continue;
      std::vector<Point2> candidate(path.begin(),
                                    path.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      candidate.push_back(corner);
      candidate.push_back(to);
      bool clear = true;
      for (size_t m = k; m + 1 < candidate.size() && clear; ++m)
        clear = clear_of_shapes(e, candidate[m], candidate[m + 1]);
      if (!clear) continue;
      std::vector<Point2> tidy{candidate.front()};  // without repeated or collinear points
      for (size_t m = 1; m < candidate.size(); ++m) {
        const Point2 p = candidate[m];
        if (std::abs(p.x - tidy.back().x) < kOnSide && std::abs(p.y - tidy.back().y) < kOnSide)
          continue;
        if (tidy.size() >= 2) {
          const Point2 q = tidy[tidy.size() - 2], r = tidy.back();
          if ((std::abs(q.x - r.x) < kOnSide && std::abs(r.x - p.x) < kOnSide) ||
              (std::abs(q.y - r.y) < kOnSide && std::abs(r.y - p.y) < kOnSide))
            tidy.pop_back();
        }
        tidy.push_back(p);
      }
      if (source) std::reverse(tidy.begin(), tidy.end());
      out.push_back(std::move(tidy));
    }
    return out;
  }

  // Paths for edge e with its ends at the given ports, the moved one at the source or the
  // target: reshaped from its route, or (`anew`) routed anew between the ports.
  std::vector<std::vector<Point2>> candidates(size_t e, bool source, Point2 exit, Point2 entry,
                                              bool anew) const {
    if (anew) {
      auto routed = reroute(e, exit, entry);
      return routed ? std::vector<std::vector<Point2>>{std::move(*routed)}
                    : std::vector<std::vector<Point2>>{};
    }
    const IndexedGraph::Edge& edge = graph_.edges[e];
    const Box& moved = box(source ? edge.source : edge.target);
    const Point2 port = source ? exit : entry;
    return reshaped(e, source, Point2{moved.x + port.x * moved.w, moved.y + port.y * moved.h});
  }

  bool try_swap(size_t a, bool a_source, size_t b, bool b_source) {
    Point2 a_exit = port(a, true), a_entry = port(a, false);
    Point2 b_exit = port(b, true), b_entry = port(b, false);
    Point2& a_end = a_source ? a_exit : a_entry;
    Point2& b_end = b_source ? b_exit : b_entry;
    std::swap(a_end, b_end);
    const int crossed = crossings_of(a, paths_[a], b, paths_[b]);
    const int bent = bends(paths_[a]) + bends(paths_[b]);
    // Both reshaped first (each keeps its lanes); routed anew (the search is dearer) only when
    // that does not do, each alone, then both.
    std::vector<std::vector<Point2>> for_a, for_b;
    const std::vector<Point2>* best_a = nullptr;
    const std::vector<Point2>* best_b = nullptr;
    std::pair<int, int> best{crossed, bent};  // to beat: fewer crossings, no more bends
    for (int stage = 0; stage < 3 && best_a == nullptr; ++stage) {
      if (stage == 0) {
        for_a = candidates(a, a_source, a_exit, a_entry, false);
        for_b = candidates(b, b_source, b_exit, b_entry, false);
      } else {
        std::vector<std::vector<Point2>>& more = stage == 1 ? for_a : for_b;
        for (auto& path : stage == 1 ? candidates(a, a_source, a_exit, a_entry, true)
                                     : candidates(b, b_source, b_exit, b_entry, true))
          more.push_back(std::move(path));
      }
      choose(a, for_a, b, for_b, best, best_a, best_b);
    }
    if (best_a == nullptr || best.first >= crossed) return false;
    for (const auto& [e, path, exit, entry] :
         {std::tuple{a, *best_a, a_exit, a_entry}, std::tuple{b, *best_b, b_exit, b_entry}}) {
      routes_[e].waypoints.assign(path.begin() + 1, path.end() - 1);
      routes_[e].exit = exit;
      routes_[e].entry = entry;
      paths_[e] = path;
    }
    return true;
  }

  // The pair of paths for a and b that crosses fewest routes, then bends least, below `best`,
  // no longer than kLonger more, into no more groups holding neither end, and with no more
  // runs side by side with others than the routes have now.
  void choose(size_t a, const std::vector<std::vector<Point2>>& for_a, size_t b,
              const std::vector<std::vector<Point2>>& for_b, std::pair<int, int>& best,
              const std::vector<Point2>*& best_a, const std::vector<Point2>*& best_b) const {
    const int bent = bends(paths_[a]) + bends(paths_[b]);
    const double long_before = length(paths_[a]) + length(paths_[b]);
    const int foreign_a = foreign(a, paths_[a]), foreign_b = foreign(b, paths_[b]);
    const std::pair<int, int> near = side_by_side_of(a, paths_[a], b, paths_[b]);
    for (const auto& pa : for_a) {
      if (foreign(a, pa) > foreign_a) continue;
      for (const auto& pb : for_b) {
        if (foreign(b, pb) > foreign_b) continue;
        const std::pair<int, int> cost{crossings_of(a, pa, b, pb), bends(pa) + bends(pb)};
        if (cost.second > bent || cost >= best) continue;
        if (length(pa) + length(pb) > (1 + kLonger) * long_before) continue;
        const auto [close, lanes] = side_by_side_of(a, pa, b, pb);
        if (close > near.first || lanes > near.second) continue;
        best = cost;
        best_a = &pa;
        best_b = &pb;
      }
    }
  }

  const Drawing& drawing_;
  const IndexedGraph& graph_;
  std::vector<EdgeRoute>& routes_;
  std::vector<std::vector<Point2>> paths_;
};

}  // namespace

size_t swap_crossed_ports(const Drawing& drawing, const IndexedGraph& graph,
                          std::vector<EdgeRoute>& routes) {
  return Swapper(drawing, graph, routes).run();
}

}  // namespace fcp::drawio::layout::detail
