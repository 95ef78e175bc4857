// Edge waypoints: orthogonal corners through rank rows, and bend points that describe splines.
#pragma once

#include <vector>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// Points along a piecewise cubic Bézier given by 3k+1 control points, `steps` per piece.
std::vector<Point2> flatten_bezier(const std::vector<Point2>& controls, int steps);

// Where `polyline` crosses the centre line of each row strictly between the rows of the source
// and target nodes, in order from source to target.
std::vector<RowCrossing> row_crossings(const std::vector<Point2>& polyline, const Drawing& drawing,
                                       int source, int target);

// A few bend points that describe the spline (piece junctions and midpoints, collinear ones
// dropped), ordered from the source box to the target box.
std::vector<Point2> spline_bends(const std::vector<Point2>& controls, const Box& source,
                                 const Box& target);

// The route of every edge of a finished drawing (aligned with graph.edges). Orthogonal routes of
// layered and tree drawings leave and reach a node side at ports spread along it and cross each
// gap between rows in lanes of their own (runs whose spans meet never share a line).
std::vector<EdgeRoute> route_edges(const Drawing& drawing, const IndexedGraph& graph,
                                   EdgeRouting routing, double spacing);

// Widens every gap between rows too narrow for the lanes its orthogonal routes need (12 px
// apart), moving everything beyond it along the rank axis (clusters across it grow). Returns
// whether anything moved. Nothing happens to a drawing without rows.
bool widen_for_routes(Drawing& drawing, const IndexedGraph& graph, double spacing);

}  // namespace fcp::drawio::layout::detail
