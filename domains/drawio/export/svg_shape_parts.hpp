// Internal to svg_shapes*.cpp: what one shape writer needs.
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>

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
  Box b;  // the box the shape is drawn in: after direction= swapped width and height
  Paint paint;
  bool placeholder = false;  // set by a writer that could only draw a placeholder
};

// One draw.io shape name and how to draw it. A `directed` shape is drawn facing east and
// turned by direction= (north/south swap its box), as mxShape does; the others read
// direction= themselves or ignore it. A writer that can only draw a placeholder (an inline
// stencil that does not decode, an image that cannot be embedded) sets `placeholder`.
struct ShapeEntry {
  std::string_view name;
  void (*write)(ShapeContext&);
  bool directed = true;
};

// The tables, each in its own file: mxGraph's core shapes (svg_shapes.cpp), draw.io's
// built-in shapes (svg_shapes_builtin.cpp) and the stencil-library shapes drawn natively
// (flowchart, logic gates, BPMN, UML, basic: svg_shapes_library.cpp).
std::span<const ShapeEntry> core_shapes();
std::span<const ShapeEntry> builtin_shapes();
std::span<const ShapeEntry> library_shapes();
const ShapeEntry* find_shape(std::string_view name);

// A size style value: a fraction of `extent` unless fixedSize=1 (then px), clamped to
// [0, extent * max_fraction].
double shape_size(const ShapeContext& shape, double fallback_fraction, double fallback_px,
                  double extent, double max_fraction = 0.5);
// A style number clamped to [low, high].
double style_clamped(const ShapeContext& shape, std::string_view key, double fallback, double low,
                     double high);

void write_rect(ShapeContext& shape, double radius);
void write_ellipse(ShapeContext& shape);
void write_rhombus(ShapeContext& shape);
// A closed polygon in box-relative coordinates.
void write_polygon(ShapeContext& shape, std::initializer_list<Vec> points);
// An open polyline in box-relative coordinates, stroked only.
void write_polyline(ShapeContext& shape, std::initializer_list<Vec> points);
void write_stencil_fallback(ShapeContext& shape);
void write_image(ShapeContext& shape);
// An inline stencil (shape=stencil(…)): draws its XML; a placeholder when it does not decode.
void write_inline_stencil(ShapeContext& shape);

}  // namespace fcp::drawio::render::detail
