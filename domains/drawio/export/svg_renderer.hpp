// Renders one draw.io page as a standalone SVG 1.1 document, without draw.io.
#pragma once

#include <optional>
#include <string>

#include "core/result.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio::render {

struct SvgOptions {
  double border = 10;            // px around the content
  std::optional<double> width;   // scale the drawing to this width (keeps aspect); nullopt = 1:1
  std::optional<double> height;  // or to this height (both: fit inside)
  std::string background;        // "" = transparent, else a colour
};

// A standalone SVG 1.1 document of one page: visible layers only, z-order = document order
// (each cell before its children), vertex shapes (rect, rounded, ellipse, rhombus, hexagon,
// cylinder, cloud, document, parallelogram, trapezoid, triangle, process, step, card, note,
// actor, umlActor, swimlane with header, partial rectangles, lines, data: URI images), text
// cells and containers; stencils (shape=mxgraph.*, inline stencil(…), image URLs) as a labelled
// fallback box; edges as polylines from source perimeter through waypoints to target perimeter
// (exit/entry constraints, orthogonal/elbow routing, rounded and curved), arrowheads per
// startArrow/endArrow; labels as <text>/<tspan> lines with HTML reduced to text. No
// <foreignObject>, no external references. Hostile values are clamped, labels capped.
// Errors: "empty page" when nothing is visible; "invalid SVG option: …".
// Thread: pure function of its arguments; safe to call concurrently.
core::Result<std::string> render_svg(const Page& page, const SvgOptions& options = {});

}  // namespace fcp::drawio::render
