// Where along its own route each edge label goes: on nothing else if the route allows.
#pragma once

#include <optional>
#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// Sets label_position on the routes of edges with a label size: the point along the edge's path
// (from its source port through its waypoints to its target port, as draw.io draws it) where the
// label's box lies on the fewest shapes that are not the edge's ends, then on the fewest labels
// placed before it, then under the fewest other edges, nearest the middle. Positions are draw.io's
// relative label positions (−1 at the source, 0 the middle, 1 at the target).
// The routes as draw.io draws them (from the source's port through the waypoints to the
// target's): points where two edges cross, their length together, and the (segment, shape)
// pairs where a route passes within kShapeClearance of a shape that is not one of its ends, and
// the pairs of runs of two edges that read as one line (kOneLineGap apart or less, side by side
// for more than kOneLineLength).
// The end of a route on `box`: its port if it has one, else where draw.io's orthogonal connector
// leaves toward `toward` (straight across when within the box's span), else the centre.
Point2 end_point(const Box& box, const std::optional<Point2>& port, Point2 toward);
// The route as draw.io draws it: its source's end, its waypoints, its target's end.
std::vector<Point2> path_of(const Box& source, const Box& target, const EdgeRoute& route);
// Whether segments ab and cd cross at a point inside both.
bool segments_cross(Point2 a, Point2 b, Point2 c, Point2 d);

inline constexpr double kOneLineGap = 2;
inline constexpr double kOneLineLength = 20;
struct RouteFigures {
  int crossings = 0;
  double length = 0;
  int near_shapes = 0;
  int one_line = 0;
};
RouteFigures measure_routes(const Drawing& drawing, const IndexedGraph& graph,
                            const std::vector<EdgeRoute>& routes);

// Whether routes measuring `now` beat routes measuring `best`: no more pairs of edges on one
// line, and fewer crossings, or as many past fewer shapes, or as many past as many shapes over a
// way shorter by more than half a pixel (the tie-breaks of the order within tiers).
bool routes_better(const RouteFigures& now, const RouteFigures& best);

// A label across a border of `borders` (the cluster boxes as the caller will draw them, aligned
// with drawing.clusters) costs as much as one near another edge; one within 8 px of another
// edge's line, of a border or of a title of `titles` (the boxes of the clusters' title text)
// costs too: it reads as theirs (issue 13, judge 11).
void place_labels(const Drawing& drawing, const IndexedGraph& graph,
                  const std::vector<LayoutEdge>& edges, std::vector<EdgeRoute>& routes,
                  const std::vector<std::optional<Box>>& borders,
                  const std::vector<std::optional<Box>>& titles);

// The box of a cluster's title as draw.io draws a group's label (verticalAlign=top, bold 12 px):
// kTitleHeight px from the top of its frame, about 7 px a character plus 8, centred.
inline constexpr double kTitleHeight = 20;

}  // namespace fcp::drawio::layout::detail
