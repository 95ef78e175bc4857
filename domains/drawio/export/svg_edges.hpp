// Internal to the SVG renderer: edge routes (straight, orthogonal, elbow) and their drawing.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"

namespace fcp::drawio::render::detail {

// draw.io's perimeters: where an edge meets a shape's outline. hexagon (hexagonPerimeter,
// hexagonPerimeter2) and parallelogram (parallelogramPerimeter) cut `size` px off the box's
// left and right sides, as the shapes are drawn (direction east).
enum class Perimeter { rectangle, ellipse, rhombus, hexagon, parallelogram };

// One end of an edge, in absolute page coordinates.
struct Terminal {
  std::optional<Box> box;  // the connected cell's bounds; nullopt for a free end
  Perimeter perimeter = Perimeter::rectangle;
  std::optional<Vec> fixed;  // exitX/exitY (entryX/entryY) on the box, or the free end point
  double size = 0;           // the hexagon's or parallelogram's slant, px
};

// The perimeter a vertex style asks for (perimeter=…, or its shape's own), and the slant of a
// hexagon or parallelogram perimeter in px (0 for the others).
Perimeter perimeter_of(const StyleView& style);
double perimeter_size(const StyleView& style, Perimeter perimeter, double width);

// An orthogonal run's end `port` on the box's side, moved on along the run that reaches it (from
// `from`) to where the run meets the shape's outline, as draw.io ends it; `port` itself when the
// run does not meet the outline inside the box (or the perimeter is the box).
Vec run_onto_outline(const Terminal& end, Vec port, Vec from);

// Where the ray from the box centre towards `toward` leaves the shape (`size`: see Perimeter).
Vec perimeter_point(const Box& box, Perimeter perimeter, Vec toward, double size = 0);

// The polyline from source to target through `waypoints`: straight segments to the terminals'
// perimeters, or, for orthogonalEdgeStyle / elbowEdgeStyle / entityRelationEdgeStyle, axis-
// parallel segments (an L or Z elbow when there are no waypoints). Empty when an end is missing.
std::vector<Vec> route_edge(const StyleView& style, const Terminal& source, const Terminal& target,
                            const std::vector<Vec>& waypoints);

// A loop on the right side of `box`, for an edge from a cell to itself without waypoints.
std::vector<Vec> self_loop(const Box& box);

// mxGraphView.getPoint: the point at (relative_x + 1) / 2 of the route's length, moved
// `offset_y` px across the segment, plus `offset`. The midpoint for (0, 0, {0, 0}).
Vec point_on_route(const std::vector<Vec>& route, double relative_x, double offset_y, Vec offset);

// Writes the edge line (rounded or curved when asked) and its startArrow/endArrow markers.
void write_edge(SvgWriter& svg, const StyleView& style, std::vector<Vec> route);

// Arrowheads ------------------------------------------------------------------------------
struct ArrowEnd {
  Vec tip;
  Vec unit;  // direction of the last segment, pointing into the tip
  double size = 6;
  double stroke_width = 1;
  bool filled = true;
};

struct MarkerPart {
  enum class Fill { none, stroke, white };
  std::vector<Vec> points;  // a polyline; closed when `closed`
  bool closed = false;
  Fill fill = Fill::none;
  std::optional<double> circle_radius;  // when set, a circle centred at points[0]
};

struct Marker {
  std::vector<MarkerPart> parts;
  Vec line_end;  // where the edge line stops so it does not poke through the marker
};

// The marker draw.io draws for `kind` (classic, classicThin, block, blockThin, open, openThin,
// oval, diamond, diamondThin, box, dash, cross, circle, circlePlus, baseDash, async, openAsync,
// doubleBlock, halfCircle, ERone, ERmandOne, ERmany, ERoneToMany, ERzeroToOne, ERzeroToMany);
// nullopt for none and unknown kinds.
std::optional<Marker> make_marker(std::string_view kind, const ArrowEnd& end);

}  // namespace fcp::drawio::render::detail
