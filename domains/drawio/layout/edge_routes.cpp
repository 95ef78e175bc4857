#include "domains/drawio/layout/edge_routes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace fcp::drawio::layout::detail {
namespace {

constexpr double kTolerance = 0.5;  // px: closer than this counts as aligned
constexpr size_t kMaxSplineBends = 8;

Point2 cubic(const Point2* p, double t) {
  const double s = 1 - t;
  const double a = s * s * s, b = 3 * s * s * t, c = 3 * s * t * t, d = t * t * t;
  return Point2{a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
                a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y};
}

double distance(Point2 a, Point2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

// Distance of `p` from the line through `a` and `b`.
double off_line(Point2 p, Point2 a, Point2 b) {
  const double length = distance(a, b);
  if (length < 1e-9) return distance(p, a);
  return std::abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length;
}

// Drops interior points that lie on the line between their neighbours (ends are anchors).
std::vector<Point2> drop_collinear(Point2 start, const std::vector<Point2>& points, Point2 end) {
  std::vector<Point2> kept;
  Point2 previous = start;
  for (size_t i = 0; i < points.size(); ++i) {
    const Point2 next = i + 1 < points.size() ? points[i + 1] : end;
    if (off_line(points[i], previous, next) < 1.0 || distance(points[i], previous) < 1.0) {
      continue;
    }
    kept.push_back(points[i]);
    previous = points[i];
  }
  return kept;
}

// A place on an orthogonal route in rank coordinates: `cross` across the rank axis, `lo`–`hi`
// the extent along it (a box, or a whole row for a row crossing).
struct Stop {
  double cross = 0, lo = 0, hi = 0;
  double cross_lo = 0, cross_hi = 0;  // extent across the rank axis (boxes only)
  double along() const { return (lo + hi) / 2; }
};

// A corner pair: the route turns at `first`, runs across or along, and turns again at `second`.
using Turn = std::pair<Point2, Point2>;

// A run across a gap between rows, not yet placed: turn `turn` of edge `edge` runs across the
// channel [lo, hi] on the rank axis from `low_side` (its cross coordinate where the channel
// starts) to `high_side` (where it ends).
struct Track {
  size_t edge = 0, turn = 0;
  double lo = 0, hi = 0;
  double low_side = 0, high_side = 0;
  double gap_lo = 0, gap_hi = 0;  // the whole gap between the rows the run joins
};

class RouteBuilder {
 public:
  RouteBuilder(const Drawing& drawing, bool vertical) : drawing_(drawing), vertical_(vertical) {}

  Stop node_stop(int node, bool use_row) const {
    const Box& box = drawing_.nodes[static_cast<size_t>(node)];
    Stop stop = vertical_ ? Stop{box.cx(), box.y, box.bottom(), box.x, box.right()}
                          : Stop{box.cy(), box.x, box.right(), box.y, box.bottom()};
    const int row = use_row ? drawing_.node_row[static_cast<size_t>(node)] : -1;
    if (row >= 0) {
      stop.lo = std::min(stop.lo, drawing_.rows[static_cast<size_t>(row)].lo);
      stop.hi = std::max(stop.hi, drawing_.rows[static_cast<size_t>(row)].hi);
    }
    return stop;
  }
  Stop crossing_stop(const RowCrossing& crossing) const {
    const Row& row = drawing_.rows[static_cast<size_t>(crossing.row)];
    return Stop{crossing.cross, row.lo, row.hi, crossing.cross, crossing.cross};
  }
  Point2 page(double cross, double along) const {
    return vertical_ ? Point2{cross, along} : Point2{along, cross};
  }

  // The turns from `a` to `b` (none when they overlap on both axes). A run across a gap between
  // rows becomes a Track whose position in its channel is chosen later, with the other runs of
  // that channel; side by side on the rank axis the route turns halfway between the boxes.
  void connect(const Stop& a, const Stop& b, size_t edge, std::vector<Turn>& turns,
               std::vector<Track>& tracks) const {
    if (b.lo >= a.hi - kTolerance || a.lo >= b.hi - kTolerance) {
      if (std::abs(a.cross - b.cross) > kTolerance) {
        const bool forward = b.lo >= a.hi - kTolerance;
        const double from = forward ? a.hi : b.hi, to = forward ? b.lo : a.lo;
        const auto stretch = channel(a, b, from, to);
        tracks.push_back(Track{edge, turns.size(), stretch.first, stretch.second,
                               forward ? a.cross : b.cross, forward ? b.cross : a.cross, from, to});
        turns.emplace_back(page(a.cross, 0), page(b.cross, 0));  // along set by the track
      }
      return;
    }
    double mid = 0;
    if (b.cross_lo >= a.cross_hi) {
      mid = (a.cross_hi + b.cross_lo) / 2;
    } else if (a.cross_lo >= b.cross_hi) {
      mid = (b.cross_hi + a.cross_lo) / 2;
    } else {
      return;
    }
    if (std::abs(a.along() - b.along()) > kTolerance) {
      turns.emplace_back(page(mid, a.along()), page(mid, b.along()));
    }
  }
  // Puts a track's run at `along` on the rank axis.
  void place(Turn& turn, double along) const {
    (vertical_ ? turn.first.y : turn.first.x) = along;
    (vertical_ ? turn.second.y : turn.second.x) = along;
  }
  bool vertical() const { return vertical_; }

  // The stretch of the gap [from, to] on the rank axis where the route from `a` to `b` may run
  // across: the widest stretch inside the fewest clusters that do not hold both ends, so that
  // routes keep out of groups they do not belong to (cluster borders cut the gap into stretches).
  std::pair<double, double> channel(const Stop& a, const Stop& b, double from, double to) const {
    const double cross_lo = std::min(a.cross, b.cross), cross_hi = std::max(a.cross, b.cross);
    const Point2 ends[] = {page(a.cross, a.along()), page(b.cross, b.along())};
    std::vector<double> cuts{from, to};
    std::vector<Box> foreign;  // clusters the run could cross that do not hold both ends
    for (const std::optional<Box>& cluster : drawing_.clusters) {
      if (!cluster || (holds(*cluster, ends[0]) && holds(*cluster, ends[1]))) continue;
      const auto [lo, hi] = rank_extent(*cluster);
      const auto [c_lo, c_hi] = cross_extent(*cluster);
      if (hi <= from || lo >= to || c_hi <= cross_lo || c_lo >= cross_hi) continue;
      foreign.push_back(*cluster);
      for (double border : {lo, hi}) {
        if (border > from && border < to) cuts.push_back(border);
      }
    }
    if (foreign.empty()) return {from, to};
    std::sort(cuts.begin(), cuts.end());
    std::pair<double, double> best{from, to};
    double best_width = -1;
    size_t best_cost = foreign.size() + 1;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const double mid = (cuts[i] + cuts[i + 1]) / 2, width = cuts[i + 1] - cuts[i];
      const auto cost =
          static_cast<size_t>(std::count_if(foreign.begin(), foreign.end(), [&](const Box& c) {
            const auto [lo, hi] = rank_extent(c);
            return lo < mid && mid < hi;
          }));
      if (cost < best_cost || (cost == best_cost && width > best_width)) {
        best = {cuts[i], cuts[i + 1]};
        best_width = width;
        best_cost = cost;
      }
    }
    return best;
  }
  std::pair<double, double> rank_extent(const Box& box) const {
    return vertical_ ? std::pair{box.y, box.bottom()} : std::pair{box.x, box.right()};
  }
  std::pair<double, double> cross_extent(const Box& box) const {
    return vertical_ ? std::pair{box.x, box.right()} : std::pair{box.y, box.bottom()};
  }
  static bool holds(const Box& box, Point2 p) {
    return p.x >= box.x && p.x <= box.right() && p.y >= box.y && p.y <= box.bottom();
  }

  // An edge between two nodes of one row with other nodes of the row between them runs round
  // the row's near side instead of through them.
  bool detour(int source, int target, double spacing, std::vector<Turn>& turns) const {
    const int row = drawing_.node_row[static_cast<size_t>(source)];
    if (row < 0 || row != drawing_.node_row[static_cast<size_t>(target)]) return false;
    const Stop a = node_stop(source, true), b = node_stop(target, true);
    const double low = std::min(a.cross, b.cross), high = std::max(a.cross, b.cross);
    const Row& r = drawing_.rows[static_cast<size_t>(row)];
    const bool blocked = std::any_of(r.nodes.begin(), r.nodes.end(), [&](int node) {
      if (node == source || node == target) return false;
      const double cross = node_stop(node, false).cross;
      return cross > low && cross < high;
    });
    if (!blocked) return false;
    const double outside = r.lo - spacing / 2;
    turns.emplace_back(page(a.cross, outside), page(b.cross, outside));
    return true;
  }

 private:
  const Drawing& drawing_;
  bool vertical_;
};

constexpr double kTrackGap = 12;  // px at least between runs in one channel whose spans meet

// The route of one edge before its runs across gaps are placed: its stops from source to target
// (ports spread along the nodes' sides), or its turns when it needs no stops (force, detours).
struct Plan {
  std::vector<Stop> stops;
  std::vector<Turn> turns;
  std::optional<Point2> exit, entry;  // spread ports, fractions of the box
};

// Force: a Z along the axis on which the boxes are further apart.
std::vector<Turn> force_turns(const Drawing& drawing, const IndexedGraph::Edge& edge) {
  const Box& a = drawing.nodes[static_cast<size_t>(edge.source)];
  const Box& b = drawing.nodes[static_cast<size_t>(edge.target)];
  const double gap_y = std::max(b.y - a.bottom(), a.y - b.bottom());
  const double gap_x = std::max(b.x - a.right(), a.x - b.right());
  const RouteBuilder builder(drawing, gap_y >= gap_x);
  std::vector<Turn> turns;
  std::vector<Track> own;
  builder.connect(builder.node_stop(edge.source, false), builder.node_stop(edge.target, false), 0,
                  turns, own);
  for (const Track& track : own)
    builder.place(turns[track.turn], (track.lo + track.hi) / 2);
  return turns;
}

std::vector<Plan> plan_routes(const Drawing& drawing, const IndexedGraph& graph,
                              const RouteBuilder& builder, double spacing) {
  std::vector<Plan> plans(graph.edges.size());
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const int s = graph.edges[i].source, t = graph.edges[i].target;
    if (s == t) continue;
    const bool in_rows =
        !drawing.moved[static_cast<size_t>(s)] && !drawing.moved[static_cast<size_t>(t)];
    if (in_rows && builder.detour(s, t, spacing, plans[i].turns)) continue;
    plans[i].stops.push_back(builder.node_stop(s, in_rows));
    if (in_rows) {
      for (const RowCrossing& crossing : drawing.crossings[i])
        plans[i].stops.push_back(builder.crossing_stop(crossing));
    }
    plans[i].stops.push_back(builder.node_stop(t, in_rows));
  }
  return plans;
}

// dot's splines may cross each other on a row's centre line, where the routes take their stops:
// stops of one row closer than a lane apart are spread apart (about their middle, kept between
// the row's nodes next to them), so that no two routes run on one line through the row.
void separate_crossings(std::vector<Plan>& plans, const Drawing& drawing,
                        const RouteBuilder& builder) {
  std::map<int, std::vector<std::pair<size_t, size_t>>> by_row;  // row → (plan, stop)
  for (size_t i = 0; i < plans.size(); ++i) {
    const auto& crossings = drawing.crossings[i];
    for (size_t k = 0; k < crossings.size() && k + 1 < plans[i].stops.size(); ++k)
      by_row[crossings[k].row].emplace_back(i, k + 1);
  }
  for (auto& [row, stops] : by_row) {
    if (stops.size() < 2) continue;
    auto cross_of = [&plans](const std::pair<size_t, size_t>& at) -> double& {
      return plans[at.first].stops[at.second].cross;
    };
    std::sort(stops.begin(), stops.end(),
              [&](const auto& a, const auto& b) { return cross_of(a) < cross_of(b); });
    std::vector<std::pair<double, double>> nodes;  // cross extents of the row's nodes
    for (int node : drawing.rows[static_cast<size_t>(row)].nodes) {
      const Stop stop = builder.node_stop(node, false);
      nodes.emplace_back(stop.cross_lo, stop.cross_hi);
    }
    for (size_t first = 0; first < stops.size();) {
      size_t last = first;
      while (last + 1 < stops.size() &&
             cross_of(stops[last + 1]) - cross_of(stops[last]) < kTrackGap)
        ++last;
      if (last > first) {
        double lo = -1e18, hi = 1e18;  // room between the nodes round the group
        const double mid = (cross_of(stops[first]) + cross_of(stops[last])) / 2;
        for (const auto& [n_lo, n_hi] : nodes) {
          if (n_hi <= mid) lo = std::max(lo, n_hi + 1);
          if (n_lo >= mid) hi = std::min(hi, n_lo - 1);
        }
        const auto count = static_cast<double>(last - first);
        const double gap = std::min(kTrackGap, (hi - lo) / (count + 2));
        const double start = std::clamp(mid - gap * count / 2, lo + gap, hi - gap - gap * count);
        for (size_t k = first; k <= last; ++k)
          cross_of(stops[k]) = start + gap * static_cast<double>(k - first);
      }
      first = last + 1;
    }
  }
}

// The side of stop `a` a run toward `b` leaves from along the rank axis: +1 the high side, -1
// the low side, 0 across (side by side).
int side_toward(const Stop& a, const Stop& b) {
  if (b.lo >= a.hi - kTolerance) return 1;
  if (a.lo >= b.hi - kTolerance) return -1;
  return 0;
}

// Edges that leave (or reach) one side of a node get ports spread evenly along that side, in the
// order of where they go next, so that no two share a run and they do not cross at the node.
void spread_ports(std::vector<Plan>& plans, const IndexedGraph& graph, bool vertical) {
  struct End {
    double next = 0;  // cross coordinate of the neighbouring stop
    size_t plan = 0;
    bool source = true;
  };
  std::map<std::pair<int, int>, std::vector<End>> sides;  // (node, side) → ends
  for (size_t i = 0; i < plans.size(); ++i) {
    const std::vector<Stop>& stops = plans[i].stops;
    if (stops.size() < 2) continue;
    if (const int side = side_toward(stops[0], stops[1]); side != 0)
      sides[{graph.edges[i].source, side}].push_back({stops[1].cross, i, true});
    const size_t last = stops.size() - 1;
    if (const int side = side_toward(stops[last], stops[last - 1]); side != 0)
      sides[{graph.edges[i].target, side}].push_back({stops[last - 1].cross, i, false});
  }
  for (auto& [key, ends] : sides) {
    if (ends.size() < 2) continue;
    std::sort(ends.begin(), ends.end(), [](const End& a, const End& b) {
      return a.next != b.next ? a.next < b.next : a.plan < b.plan;
    });
    for (size_t k = 0; k < ends.size(); ++k) {
      Plan& plan = plans[ends[k].plan];
      Stop& stop = ends[k].source ? plan.stops.front() : plan.stops.back();
      const double fraction = static_cast<double>(k + 1) / static_cast<double>(ends.size() + 1);
      stop.cross = stop.cross_lo + (stop.cross_hi - stop.cross_lo) * fraction;
      const double side = key.second > 0 ? 1 : 0;
      const Point2 port = vertical ? Point2{fraction, side} : Point2{side, fraction};
      (ends[k].source ? plan.exit : plan.entry) = port;
    }
  }
}

// The tracks of one gap get lanes: runs whose spans across the rank axis meet take distinct
// lanes, in an order that avoids needless crossings (runs going toward higher cross coordinates
// first, the one starting higher turning earlier; then those going lower, the one starting lower
// first). A run that ends at the height another starts turns after it, or the two would share a
// line there. Returns the number of lanes; `lane` is filled per track of `members`.
size_t assign_lanes(const std::vector<Track>& tracks, std::vector<size_t>& members,
                    std::vector<size_t>& lane) {
  std::sort(members.begin(), members.end(), [&](size_t x, size_t y) {
    const Track& a = tracks[x];
    const Track& b = tracks[y];
    const bool a_down = a.high_side > a.low_side, b_down = b.high_side > b.low_side;
    if (a_down != b_down) return a_down;
    if (a.low_side != b.low_side) return a_down ? a.low_side > b.low_side : a.low_side < b.low_side;
    return a.high_side != b.high_side ? a.high_side > b.high_side : x < y;
  });
  const size_t n = members.size();
  auto span = [&](size_t k) {
    const Track& t = tracks[members[k]];
    return std::pair{std::min(t.low_side, t.high_side), std::max(t.low_side, t.high_side)};
  };
  // Precedence between runs whose spans meet: sorted order, except that a run starting where an
  // earlier one ends goes first.
  std::vector<std::vector<size_t>> after(n);
  std::vector<size_t> before_count(n, 0);
  for (size_t k = 0; k < n; ++k) {
    const auto [k_lo, k_hi] = span(k);
    for (size_t j = k + 1; j < n; ++j) {
      const auto [j_lo, j_hi] = span(j);
      if (!(j_lo < k_hi + kTrackGap && k_lo < j_hi + kTrackGap)) continue;
      const bool j_first = std::abs(tracks[members[k]].high_side - tracks[members[j]].low_side) < 1;
      after[j_first ? j : k].push_back(j_first ? k : j);
      ++before_count[j_first ? k : j];
    }
  }
  std::vector<size_t> ready, level(n, 0);
  for (size_t k = 0; k < n; ++k) {
    if (before_count[k] == 0) ready.push_back(k);
  }
  size_t done = 0, lanes = n == 0 ? 0 : 1;
  while (!ready.empty()) {
    const size_t k = ready.back();
    ready.pop_back();
    ++done;
    lanes = std::max(lanes, level[k] + 1);
    for (size_t j : after[k]) {
      level[j] = std::max(level[j], level[k] + 1);
      if (--before_count[j] == 0) ready.push_back(j);
    }
  }
  if (done < n) {  // the exceptions made a cycle: plain sorted order
    lanes = n == 0 ? 0 : 1;
    for (size_t k = 0; k < n; ++k) {
      level[k] = 0;
      const auto [k_lo, k_hi] = span(k);
      for (size_t j = 0; j < k; ++j) {
        const auto [j_lo, j_hi] = span(j);
        if (j_lo < k_hi + kTrackGap && k_lo < j_hi + kTrackGap)
          level[k] = std::max(level[k], level[j] + 1);
      }
      lanes = std::max(lanes, level[k] + 1);
    }
  }
  for (size_t k = 0; k < n; ++k)
    lane[members[k]] = level[k];
  return lanes;
}

// Places every track in its gap; returns, per gap too narrow for its lanes, where it is (its
// middle on the rank axis) and how much wider it must be. Runs of one gap share its lanes; they
// are spread over the stretch all their channels share (cluster borders may cut the gap
// differently for runs at different heights), or each over its own channel when that is narrow.
std::vector<std::pair<double, double>> place_tracks(const std::vector<Track>& tracks,
                                                    const RouteBuilder& builder,
                                                    std::vector<Plan>& plans) {
  std::map<std::pair<long, long>, std::vector<size_t>> gaps;
  for (size_t i = 0; i < tracks.size(); ++i)
    gaps[{std::lround(tracks[i].gap_lo * 2), std::lround(tracks[i].gap_hi * 2)}].push_back(i);
  std::vector<size_t> lane(tracks.size(), 0);
  std::vector<std::pair<double, double>> widen;
  for (auto& [key, members] : gaps) {
    const size_t lanes = assign_lanes(tracks, members, lane);
    double lo = -1e18, hi = 1e18;
    for (size_t member : members) {
      lo = std::max(lo, tracks[member].lo);
      hi = std::min(hi, tracks[member].hi);
    }
    const double need = static_cast<double>(lanes + 1) * kTrackGap - (hi - lo);
    if (need > 0) widen.emplace_back((lo + hi) / 2, need);
    const bool shared = hi - lo >= static_cast<double>(lanes + 1) * 4;
    for (size_t member : members) {
      const Track& t = tracks[member];
      const double from = shared ? lo : t.lo, to = shared ? hi : t.hi;
      const double along = from + (to - from) * static_cast<double>(lane[member] + 1) /
                                      static_cast<double>(lanes + 1);
      builder.place(plans[t.edge].turns[t.turn], along);
    }
  }
  return widen;
}

// Moves everything past each point on the rank axis further along by the amount given there:
// boxes and rows past it move, clusters across it grow.
void widen_gaps(Drawing& drawing, std::vector<std::pair<double, double>> widen) {
  std::sort(widen.begin(), widen.end());
  auto shift = [&widen](double at) {
    double total = 0;
    for (const auto& [point, need] : widen) {
      if (point < at) total += need;
    }
    return total;
  };
  const bool vertical = drawing.vertical_ranks;
  auto move = [&](double& lo, double& length) {
    const double new_lo = lo + shift(lo), new_hi = lo + length + shift(lo + length);
    lo = new_lo;
    length = new_hi - new_lo;
  };
  for (Box& box : drawing.nodes) {
    const double d = shift(vertical ? box.cy() : box.cx());
    (vertical ? box.y : box.x) += d;
  }
  for (std::optional<Box>& box : drawing.clusters) {
    if (box) vertical ? move(box->y, box->h) : move(box->x, box->w);
  }
  for (Row& row : drawing.rows) {
    const double d = shift((row.lo + row.hi) / 2);
    row.lo += d;
    row.hi += d;
  }
  for (auto& curve : drawing.curves) {
    for (Point2& p : curve)
      (vertical ? p.y : p.x) += shift(vertical ? p.y : p.x);
  }
}

// A run that ends where another run of the same gap starts (same height: dot lines up nodes of
// neighbouring rows) would share that line with it unless it turned later, which the order of
// lanes cannot always give; such an end moves half a lane along its side instead.
void part_meeting_ends(std::vector<Plan>& plans, bool vertical) {
  struct End {
    size_t plan = 0, stop = 0;
  };
  std::map<std::pair<long, long>, std::pair<std::vector<End>, std::vector<End>>> gaps;
  for (size_t i = 0; i < plans.size(); ++i) {
    const std::vector<Stop>& stops = plans[i].stops;
    for (size_t k = 0; k + 1 < stops.size(); ++k) {
      const int side = side_toward(stops[k], stops[k + 1]);
      if (side == 0) continue;
      const size_t low = side > 0 ? k : k + 1, high = side > 0 ? k + 1 : k;
      auto& gap = gaps[{std::lround(stops[low].hi * 2), std::lround(stops[high].lo * 2)}];
      gap.first.push_back({i, low});
      gap.second.push_back({i, high});
    }
  }
  for (auto& [key, ends] : gaps) {
    for (const End& right : ends.second) {
      Stop& stop = plans[right.plan].stops[right.stop];
      const bool meets = std::any_of(ends.first.begin(), ends.first.end(), [&](const End& left) {
        return left.plan != right.plan &&
               std::abs(plans[left.plan].stops[left.stop].cross - stop.cross) < 1;
      });
      if (!meets) continue;
      const double shift = kTrackGap / 2;
      const bool node = right.stop == 0 || right.stop + 1 == plans[right.plan].stops.size();
      if (node && stop.cross + shift > stop.cross_hi - 1) {
        stop.cross -= shift;
      } else {
        stop.cross += shift;
      }
      if (!node) continue;
      std::optional<Point2>& port =
          right.stop == 0 ? plans[right.plan].exit : plans[right.plan].entry;
      const double fraction =
          (stop.cross - stop.cross_lo) / std::max(stop.cross_hi - stop.cross_lo, 1.0);
      const int toward = right.stop == 0
                             ? side_toward(plans[right.plan].stops[0], plans[right.plan].stops[1])
                             : side_toward(stop, plans[right.plan].stops[right.stop - 1]);
      const double edge_side = toward > 0 ? 1 : 0;
      port = vertical ? Point2{fraction, edge_side} : Point2{edge_side, fraction};
    }
  }
}

// Orthogonal turns of every edge of a drawing with rows: stops, ports spread, runs across gaps
// placed in lanes. `widen` receives the channels too narrow for their lanes.
std::vector<Plan> layered_plans(const Drawing& drawing, const IndexedGraph& graph, double spacing,
                                std::vector<std::pair<double, double>>& widen) {
  const RouteBuilder builder(drawing, drawing.vertical_ranks);
  std::vector<Plan> plans = plan_routes(drawing, graph, builder, spacing);
  separate_crossings(plans, drawing, builder);
  spread_ports(plans, graph, drawing.vertical_ranks);
  part_meeting_ends(plans, drawing.vertical_ranks);
  std::vector<Track> tracks;
  for (size_t i = 0; i < plans.size(); ++i) {
    for (size_t k = 0; k + 1 < plans[i].stops.size(); ++k)
      builder.connect(plans[i].stops[k], plans[i].stops[k + 1], i, plans[i].turns, tracks);
  }
  widen = place_tracks(tracks, builder, plans);
  return plans;
}

Point2 midpoint(Point2 a, Point2 b) {
  return Point2{(a.x + b.x) / 2, (a.y + b.y) / 2};
}

// Smooths a route of turns into points on S-curves: each turn pair becomes the two inner
// control points of a cubic that starts and ends halfway along the neighbouring straight runs.
std::vector<Point2> curve_through(const std::vector<Turn>& turns, Point2 start, Point2 end) {
  std::vector<Point2> points;
  for (size_t i = 0; i < turns.size(); ++i) {
    const Point2 from = i == 0 ? start : midpoint(turns[i - 1].second, turns[i].first);
    const Point2 to = i + 1 == turns.size() ? end : midpoint(turns[i].second, turns[i + 1].first);
    const Point2 controls[] = {from, turns[i].first, turns[i].second, to};
    if (i > 0) points.push_back(from);
    for (double t : {0.25, 0.5, 0.75})
      points.push_back(cubic(controls, t));
  }
  return points;
}

std::vector<Point2> flatten(const std::vector<Turn>& turns) {
  std::vector<Point2> points;
  for (const Turn& turn : turns) {
    points.push_back(turn.first);
    points.push_back(turn.second);
  }
  return points;
}

Point2 centre(const Box& box) {
  return Point2{box.cx(), box.cy()};
}

}  // namespace

std::vector<Point2> flatten_bezier(const std::vector<Point2>& controls, int steps) {
  std::vector<Point2> points;
  if (controls.empty()) return points;
  points.push_back(controls.front());
  for (size_t i = 0; i + 3 < controls.size(); i += 3) {
    for (int step = 1; step <= steps; ++step) {
      points.push_back(cubic(&controls[i], static_cast<double>(step) / steps));
    }
  }
  return points;
}

std::vector<RowCrossing> row_crossings(const std::vector<Point2>& polyline, const Drawing& drawing,
                                       int source, int target) {
  std::vector<RowCrossing> crossings;
  const int from = drawing.node_row[static_cast<size_t>(source)];
  const int to = drawing.node_row[static_cast<size_t>(target)];
  if (from < 0 || to < 0 || std::abs(from - to) < 2) return crossings;
  const int step = to > from ? 1 : -1;
  const bool vertical = drawing.vertical_ranks;
  auto along = [vertical](Point2 p) { return vertical ? p.y : p.x; };
  auto across = [vertical](Point2 p) { return vertical ? p.x : p.y; };
  for (int row = from + step; row != to; row += step) {
    const Row& r = drawing.rows[static_cast<size_t>(row)];
    const double line = (r.lo + r.hi) / 2;
    for (size_t i = 0; i + 1 < polyline.size(); ++i) {
      const double a = along(polyline[i]) - line, b = along(polyline[i + 1]) - line;
      if (a * b > 0 || a == b) continue;
      const double t = a / (a - b);
      const double cross =
          across(polyline[i]) + t * (across(polyline[i + 1]) - across(polyline[i]));
      crossings.push_back(RowCrossing{row, cross});
      break;
    }
  }
  return crossings;
}

std::vector<Point2> spline_bends(const std::vector<Point2>& controls, const Box& source,
                                 const Box& target) {
  std::vector<Point2> points;
  for (size_t i = 0; i + 3 < controls.size(); i += 3) {
    points.push_back(cubic(&controls[i], 0.5));
    if (i + 6 < controls.size()) points.push_back(controls[i + 3]);
  }
  if (points.empty()) return points;
  if (distance(controls.front(), centre(target)) < distance(controls.front(), centre(source))) {
    std::reverse(points.begin(), points.end());
  }
  points = drop_collinear(centre(source), points, centre(target));
  if (points.size() > kMaxSplineBends) {
    std::vector<Point2> fewer;
    for (size_t i = 0; i < kMaxSplineBends; ++i) {
      fewer.push_back(points[(2 * i + 1) * points.size() / (2 * kMaxSplineBends)]);
    }
    points = std::move(fewer);
  }
  return points;
}

bool widen_for_routes(Drawing& drawing, const IndexedGraph& graph, double spacing) {
  if (drawing.rows.empty()) return false;
  std::vector<std::pair<double, double>> widen;
  layered_plans(drawing, graph, spacing, widen);
  if (widen.empty()) return false;
  widen_gaps(drawing, std::move(widen));
  return true;
}

std::vector<EdgeRoute> route_edges(const Drawing& drawing, const IndexedGraph& graph,
                                   EdgeRouting routing, double spacing) {
  std::vector<EdgeRoute> routes(graph.edges.size());
  if (routing == EdgeRouting::straight) return routes;
  if (drawing.rows.empty()) {
    if (routing == EdgeRouting::spline) return routes;  // force: straight lines read as springs
    for (size_t i = 0; i < graph.edges.size(); ++i) {
      if (graph.edges[i].source != graph.edges[i].target)
        routes[i].waypoints = flatten(force_turns(drawing, graph.edges[i]));
    }
    return routes;
  }
  std::vector<std::pair<double, double>> narrow;
  const std::vector<Plan> plans = layered_plans(drawing, graph, spacing, narrow);
  for (size_t i = 0; i < graph.edges.size(); ++i) {
    const IndexedGraph::Edge& edge = graph.edges[i];
    if (edge.source == edge.target) continue;
    if (routing == EdgeRouting::orthogonal) {
      routes[i].waypoints = flatten(plans[i].turns);
      routes[i].exit = plans[i].exit;
      routes[i].entry = plans[i].entry;
      continue;
    }
    const bool unmoved = !drawing.moved[static_cast<size_t>(edge.source)] &&
                         !drawing.moved[static_cast<size_t>(edge.target)];
    if (unmoved && drawing.curves_from_engine) {
      routes[i].waypoints = drawing.curves[i];
      continue;
    }
    routes[i].waypoints =
        curve_through(plans[i].turns, centre(drawing.nodes[static_cast<size_t>(edge.source)]),
                      centre(drawing.nodes[static_cast<size_t>(edge.target)]));
  }
  return routes;
}

}  // namespace fcp::drawio::layout::detail
