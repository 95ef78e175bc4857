// Inline stencils (shape=stencil(…)): draw.io's stencil XML, compressed into the style.
#include "domains/drawio/export/svg_shape_parts.hpp"

namespace fcp::drawio::render::detail {

void write_inline_stencil(ShapeContext& s) {
  write_stencil_fallback(s);
  s.placeholder = true;
}

}  // namespace fcp::drawio::render::detail
