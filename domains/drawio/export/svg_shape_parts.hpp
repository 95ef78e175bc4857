// Internal to svg_shapes*.cpp: what one shape writer needs.
#pragma once

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_paint.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"
#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio::render::detail {

struct ShapeContext {
  SvgWriter& svg;
  const Cell& cell;
  const StyleView& style;
  Box b;
  Paint paint;
};

// A size style value: a fraction of `extent` unless fixedSize=1 (then px), clamped to
// [0, extent * max_fraction].
double shape_size(const ShapeContext& shape, double fallback_fraction, double fallback_px,
                  double extent, double max_fraction = 0.5);

void write_rect(ShapeContext& shape, double radius);
void write_ellipse(ShapeContext& shape);
void write_rhombus(ShapeContext& shape);
void write_stencil_fallback(ShapeContext& shape);
void write_image(ShapeContext& shape);

}  // namespace fcp::drawio::render::detail
