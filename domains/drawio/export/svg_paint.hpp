// Internal to the SVG renderer: fill, stroke and dash attributes from a cell's style, and paths.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"

namespace fcp::drawio::render::detail {

struct Paint {
  std::string fill;    // "" for none; may be url(#…) of a gradient
  std::string stroke;  // "" for none
  double stroke_width = 1;
  std::string dash;  // stroke-dasharray, "" for solid
  double fill_opacity = 1;
  double stroke_opacity = 1;
};

// The vertex's paint; writes a <linearGradient> for gradientColor first (ids from `svg`).
Paint vertex_paint(SvgWriter& svg, const StyleView& style);
// The edge's stroke (no fill).
Paint edge_paint(const StyleView& style);
// stroke-dasharray for dashed=1 (dashPattern, scaled by the stroke width unless fixDash=1).
std::string dash_array(const StyleView& style, double stroke_width);

// Writes the paint attributes of an element already started; `filled` false forces fill none.
void write_paint(SvgWriter& svg, const Paint& paint, bool filled = true);

// Builds SVG path data with compact numbers.
class PathData {
 public:
  PathData& move(double x, double y) { return command('M', {x, y}); }
  PathData& line(double x, double y) { return command('L', {x, y}); }
  PathData& move(Vec p) { return command('M', {p.x, p.y}); }
  PathData& line(Vec p) { return command('L', {p.x, p.y}); }
  PathData& quad(double cx, double cy, double x, double y);
  PathData& curve(double c1x, double c1y, double c2x, double c2y, double x, double y);
  PathData& arc(double rx, double ry, bool sweep, double x, double y);
  // The general SVG elliptical arc (x-axis rotation in degrees, large-arc and sweep flags).
  PathData& arc(double rx, double ry, double rotation, bool large, bool sweep, double x, double y);
  PathData& close();
  const std::string& str() const { return d_; }
  bool empty() const { return d_.empty(); }

 private:
  PathData& command(char name, std::initializer_list<double> values);
  std::string d_;
};

// <path d="…"/> with the paint.
void write_path(SvgWriter& svg, const PathData& path, const Paint& paint, bool filled = true);

}  // namespace fcp::drawio::render::detail
