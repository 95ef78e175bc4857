// Renders one draw.io page as a standalone SVG 1.1 document, without draw.io.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio::render {

struct SvgOptions {
  double border = 10;            // px around the content
  std::optional<double> width;   // scale the drawing to this width (keeps aspect); nullopt = 1:1
  std::optional<double> height;  // or to this height (both: fit inside)
  std::string background;        // "" = transparent, else a colour
};

// A vertex drawn as a placeholder instead of its draw.io shape: a labelled box for a stencil the
// renderer has no drawing for (shape=mxgraph.…) or an image it cannot embed (a URL), a plain
// rectangle for a shape name it does not know.
struct Placeholder {
  std::string cell_id;
  std::string shape;  // the style's shape name as written ("mxgraph.cisco.routers.router")
};

struct RenderedSvg {
  std::string svg;
  std::vector<Placeholder> placeholders;  // in drawing order
};

// A standalone SVG 1.1 document of one page: visible layers only, z-order = document order
// (each cell before its children), vertex shapes drawn natively with rotation, direction and
// flipH/flipV (mxGraph's core shapes, draw.io's built-in shapes such as or, xor, tape, callout,
// folder, umlLifeline; the common flowchart, logic-gate, BPMN, UML and basic library shapes;
// inline stencil(…) shapes from their XML; the vendored draw.io stencil libraries of
// svg_stencil_library.hpp; data: URI images), text cells and containers; other
// stencils (shape=mxgraph.*) and image URLs as a labelled placeholder box. Left out of shapes that
// are drawn: BPMN task markers and event/gateway symbols other than message, timer, terminate,
// exclusive, parallel, inclusive and complex; aws4 group icons; images and include-shape inside
// inline stencils. Edges as polylines from
// source perimeter through waypoints to target perimeter (exit/entry constraints, orthogonal/elbow
// routing, rounded and curved), arrowheads per startArrow/endArrow; labels as <text>/<tspan> lines
// with HTML reduced to text. No <foreignObject>, no external references. Hostile values are
// clamped, labels capped. Errors: "empty page" when nothing is visible; "invalid SVG option: …".
// Thread: pure function of its arguments; safe to call concurrently.
core::Result<std::string> render_svg(const Page& page, const SvgOptions& options = {});
// render_svg, and the vertices it drew as placeholders.
core::Result<RenderedSvg> render_svg_report(const Page& page, const SvgOptions& options = {});

}  // namespace fcp::drawio::render
