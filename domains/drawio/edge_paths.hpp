// Edge paths as draw.io draws them (straight, through waypoints, or draw.io's own orthogonal
// route between the ends' ports), and orthogonal routes around shapes for edges fcp re-routes.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "domains/drawio/model/cell.hpp"
#include "domains/drawio/model/orthogonal_route.hpp"
#include "domains/drawio/model/page.hpp"
#include "domains/drawio/rect.hpp"

namespace fcp::drawio {

// Whether the edge's style makes draw.io route it with axis-parallel segments.
bool orthogonal_edge(const Cell& edge);

// The path draw.io draws for `edge` from the box of its source to the box of its target (page
// coordinates; `offset` is where the edge's parent sits, its waypoints are relative to it). With
// waypoints: straight runs between the ends' ports and the waypoints, plus the corners the
// orthogonal styles add. An orthogonal edge without waypoints takes draw.io's default route
// (default_orthogonal_route, which the SVG/PNG renderer draws too): from the side of each end
// facing the other along the axis with the wider gap (or the fixed exitX/exitY, entryX/entryY
// ports), an L or Z of axis-parallel runs, mid-way between the ends; a fixed port that faces away
// runs out of its side first and the route turns round the shapes, not back through them.
std::vector<PathPoint> drawn_path(const Cell& edge, const Rect& source, const Rect& target,
                                  PathPoint offset);

// Where an edge's parent sits on the page: its waypoints are relative to it.
PathPoint edge_offset(const Page& page, const Cell& edge);

// Whether a group draws a frame: draw.io's plain `group` and a box without a stroke do not.
bool draws_frame(const Cell& group);

// Whether the path runs through the inside of `box` (1 px in from its border).
bool path_crosses(std::span<const PathPoint> path, const Rect& box);

// Whether the path passes closer than `clearance` px to `box` (through it included; 1 px spare).
bool path_near(std::span<const PathPoint> path, const Rect& box, double clearance);

// px an orthogonal route keeps from every shape that is not one of its ends.
constexpr double kShapeClearance = 10;

// The bounding box of a path (empty paths give an empty box at 0,0).
Rect path_bounds(std::span<const PathPoint> path);

// A side of a box, and the point in its middle as draw.io's exitX/exitY (entryX/entryY) fractions.
enum class Side { top, right, bottom, left };
PathPoint side_fraction(Side side);

// The longest run of a path along a side of `frame`, within `gap` px of it and longer than
// `min_length` px (length 0: none): its length, its distance from the side, the side, and whether
// it runs inside the frame.
struct FrameRun {
  double length = 0;
  double gap = 0;
  Side side = Side::top;
  bool inside = false;
};
FrameRun run_along_frame(std::span<const PathPoint> path, const Rect& frame, double gap,
                         double min_length);

// An orthogonal route from one box to another that keeps `clearance` px away from every obstacle:
// it leaves the middle of one side of `source`, reaches the middle of one side of `target`, and
// turns at `corners` (the waypoints; none for a straight run). The shortest route counting each
// turn as kTurnCost px; nullopt when there is none within the obstacles' surroundings.
struct OrthogonalRoute {
  Side exit = Side::right, entry = Side::left;
  std::vector<PathPoint> corners;
  std::vector<PathPoint> path;  // port, corners, port
};
std::optional<OrthogonalRoute> route_around(const Rect& source, const Rect& target,
                                            std::span<const Rect> obstacles, double clearance = 20);

}  // namespace fcp::drawio
