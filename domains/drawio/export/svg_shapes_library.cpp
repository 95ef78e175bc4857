// Stencil-library shapes drawn natively: flowchart, logic gates, BPMN, UML and basic shapes.
#include <span>

#include "domains/drawio/export/svg_shape_parts.hpp"

namespace fcp::drawio::render::detail {

std::span<const ShapeEntry> library_shapes() {
  return {};
}

}  // namespace fcp::drawio::render::detail
