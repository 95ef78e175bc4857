// Internal to the SVG renderer: the outline of a vertex, by draw.io shape name.
#pragma once

#include <string>
#include <string_view>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"
#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio::render::detail {

// Writes the shape of `cell` (not its label) into `box`, turned by direction= and mirrored by
// flipH / flipV: mxGraph's core shapes, draw.io's built-in shapes, the common stencil-library
// shapes drawn natively (flowchart, logic gates, BPMN, UML, basic), inline stencils
// (shape=stencil(…)) from their XML and images from data: URIs. Returns true when it could only
// draw a placeholder: a labelled box for other stencils (shape=mxgraph.*) and images it cannot
// embed, a plain rectangle for a shape name it does not know.
bool write_vertex_shape(SvgWriter& svg, const Cell& cell, const StyleView& style, const Box& box);

// The words a stencil fallback shows: "lambda function" for mxgraph.aws4.lambda_function (or
// the resIcon of an aws4 resourceIcon), the file name of an image URL; "" for inline stencils.
std::string stencil_short_name(const StyleView& style);

}  // namespace fcp::drawio::render::detail
