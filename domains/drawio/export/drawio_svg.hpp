// Writes .drawio.svg files: a picture of the first page that draw.io re-opens as the diagram.
#pragma once

#include <string>

#include "core/result.hpp"
#include "domains/drawio/export/svg_renderer.hpp"
#include "domains/drawio/model/diagram.hpp"

namespace fcp::drawio::render {

// A `.drawio.svg` file: the rendered SVG of the first page whose root <svg> carries
// content="<mxfile …>" (the whole diagram, every page, XML-escaped, uncompressed), as draw.io
// writes them, so draw.io re-opens it as a diagram and browsers show the picture. An empty
// first page gives a blank picture (the file still holds the diagram). read_drawio reads the
// result back into an equal Diagram. Errors: "the diagram has no pages", invalid options.
// Thread: pure function of its arguments.
core::Result<std::string> write_drawio_svg(const Diagram& diagram, const SvgOptions& options = {});

}  // namespace fcp::drawio::render
