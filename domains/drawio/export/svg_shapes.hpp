// Internal to the SVG renderer: the outline of a vertex, by draw.io shape name.
#pragma once

#include <string>
#include <string_view>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"
#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio::render::detail {

// Writes the shape of `cell` (not its label) into `box`: the built-in shapes draw.io users meet
// most (rectangle, rounded, ellipse, rhombus, hexagon, cylinder, cloud, document, parallelogram,
// trapezoid, triangle, process, actor, swimlane, note, card, step, partial rectangles, lines,
// images from data: URIs) and, for stencils (shape=mxgraph.*, shape=stencil(…), image URLs), a
// labelled fallback box. Unknown names draw a rectangle.
void write_vertex_shape(SvgWriter& svg, const Cell& cell, const StyleView& style, const Box& box);

// True when the shape is drawn as a stencil fallback.
bool is_stencil(const StyleView& style);
// The words a stencil fallback shows: "lambda function" for mxgraph.aws4.lambda_function (or
// the resIcon of an aws4 resourceIcon), the file name of an image URL; "" for inline stencils.
std::string stencil_short_name(const StyleView& style);

}  // namespace fcp::drawio::render::detail
