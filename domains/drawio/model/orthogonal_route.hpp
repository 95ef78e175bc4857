// draw.io's route for an orthogonal edge without waypoints (mxGraph's mxEdgeStyle.OrthConnector,
// simplified), in one place for the two that need it: the batch warnings' model of drawn edges
// (edge_paths) and the SVG/PNG renderer (export/svg_edges), so what an agent sees in an export is
// what the warnings describe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "domains/drawio/rect.hpp"

namespace fcp::drawio {

struct PathPoint {
  double x = 0, y = 0;
  bool operator==(const PathPoint&) const = default;
};

// `points` without repeated points and without the middle one of three on a line (coordinates
// within `tolerance` px count as the same).
std::vector<PathPoint> simplified(const std::vector<PathPoint>& points, double tolerance = 0.01);

// mxEdgeStyle.orthBuffer: px an orthogonal route runs straight out of a port that faces away
// from the other end before it turns.
constexpr double kOrthBuffer = 10;

// One end of the route: the box of its shape (an empty box at the point for a free end), and the
// port the style fixes on it (exitX/exitY or entryX/entryY, page coordinates), if any.
struct OrthogonalEnd {
  Rect box;
  std::optional<PathPoint> port;
  double jetty = kOrthBuffer;  // px the route runs out of a port facing away (jetty_size)
};

// mxEdgeStyle.getJettySize: px an orthogonal route leaves an end's port straight before it turns.
// `own` is the end's sourceJettySize / targetJettySize, `shared` the edge's jettySize (empty when
// the style has none: kOrthBuffer); "auto" gives 20 px at an end without an arrow (`arrow` is the
// startArrow / endArrow, "none" for none), else room for the arrow of `marker_size` px
// (startSize / endSize, 6 when empty), whole orthBuffers and at least two.
double jetty_size(std::string_view own, std::string_view shared, std::string_view arrow,
                  std::string_view marker_size);

// Whether draw.io runs an orthogonal edge without waypoints vertically between boxes `s` and `t`:
// elbowEdgeStyle as its `elbow` says, entityRelation and sideToSide never, topToBottom always,
// the others along the axis with the wider gap between the boxes.
bool orthogonal_prefers_vertical(std::string_view edge_style, std::string_view elbow, const Rect& s,
                                 const Rect& t);

// The route from `source` to `target`: each end leaves from its fixed port, else from the middle
// of the span the boxes share on the side facing the other along the chosen axis (`vertical`);
// a straight run, an L or a Z turning mid-way when both ports face each other; a port that faces
// away first runs its jetty straight out of its side, then the route turns toward the other
// end, never back through its own shape. Port to port, corners in between.
std::vector<PathPoint> default_orthogonal_route(const OrthogonalEnd& source,
                                                const OrthogonalEnd& target, bool vertical);

}  // namespace fcp::drawio
