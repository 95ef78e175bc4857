// draw.io's built-in shapes (Shapes.js) beyond mxGraph's core set, drawn facing east.
#include <span>

#include "domains/drawio/export/svg_shape_parts.hpp"

namespace fcp::drawio::render::detail {

std::span<const ShapeEntry> builtin_shapes() {
  return {};
}

}  // namespace fcp::drawio::render::detail
