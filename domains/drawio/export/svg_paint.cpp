#include "domains/drawio/export/svg_paint.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace fcp::drawio::render::detail {
namespace {

double percent(const StyleView& style, std::string_view key) {
  return std::clamp(style.number(key, 100), 0.0, 100.0) / 100;
}

// Writes the gradient and returns its url(#id).
std::string write_gradient(SvgWriter& svg, const std::string& from, const std::string& to,
                           std::string_view direction) {
  const std::string id = "fcp-gradient-" + std::to_string(svg.next_id());
  // From → to runs top to bottom for south (draw.io's default).
  double x1 = 0, y1 = 0, x2 = 0, y2 = 1;
  if (direction == "north") y1 = 1, y2 = 0;
  if (direction == "east") x2 = 1, y2 = 0;
  if (direction == "west") x1 = 1, y2 = 0;
  svg.start("defs").open();
  svg.start("linearGradient").attr("id", id).attr("x1", x1).attr("y1", y1).attr("x2", x2);
  svg.attr("y2", y2).open();
  svg.start("stop").attr("offset", 0.0).attr("stop-color", from).end();
  svg.start("stop").attr("offset", 1.0).attr("stop-color", to).end();
  svg.close("linearGradient");
  svg.close("defs");
  return "url(#" + id + ")";
}

}  // namespace

std::string dash_array(const StyleView& style, double stroke_width) {
  if (!style.flag("dashed", false)) return {};
  const double scale = style.flag("fixDash", false) ? 1.0 : std::max(stroke_width, 0.1);
  std::string out;
  std::string_view pattern = style.text("dashPattern", "3 3");
  int count = 0;
  while (!pattern.empty() && count < 16) {
    while (!pattern.empty() && (pattern.front() == ' ' || pattern.front() == ',')) {
      pattern.remove_prefix(1);
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(pattern.data(), pattern.data() + pattern.size(), value);
    if (ec != std::errc() || !std::isfinite(value) || value < 0) break;
    pattern.remove_prefix(static_cast<std::size_t>(end - pattern.data()));
    if (!out.empty()) out += ' ';
    out += format_number(std::min(value * scale, 1000.0));
    ++count;
  }
  if (out.empty() || out.find_first_not_of("0 ") == std::string::npos) {
    return format_number(3 * scale) + " " + format_number(3 * scale);
  }
  return out;
}

Paint vertex_paint(SvgWriter& svg, const StyleView& style) {
  Paint paint;
  paint.fill = style.color("fillColor", "#FFFFFF");
  paint.stroke = style.color("strokeColor", "#000000");
  paint.stroke_width = std::clamp(style.number("strokeWidth", 1), 0.0, 100.0);
  if (paint.stroke_width == 0) paint.stroke.clear();
  paint.dash = dash_array(style, paint.stroke_width);
  const double opacity = percent(style, "opacity");
  paint.fill_opacity = percent(style, "fillOpacity") * opacity;
  paint.stroke_opacity = percent(style, "strokeOpacity") * opacity;
  const std::string gradient = style.color("gradientColor", "");
  if (!paint.fill.empty() && !gradient.empty()) {
    paint.fill =
        write_gradient(svg, paint.fill, gradient, style.text("gradientDirection", "south"));
  }
  return paint;
}

Paint edge_paint(const StyleView& style) {
  Paint paint;
  paint.stroke = style.color("strokeColor", "#000000");
  paint.stroke_width = std::clamp(style.number("strokeWidth", 1), 0.0, 100.0);
  if (paint.stroke_width == 0) paint.stroke.clear();
  paint.dash = dash_array(style, paint.stroke_width);
  paint.stroke_opacity = percent(style, "strokeOpacity") * percent(style, "opacity");
  paint.fill_opacity = paint.stroke_opacity;
  return paint;
}

void write_paint(SvgWriter& svg, const Paint& paint, bool filled) {
  const bool fill = filled && !paint.fill.empty();
  svg.attr("fill", fill ? std::string_view(paint.fill) : std::string_view("none"));
  if (fill && paint.fill_opacity < 1) svg.attr("fill-opacity", paint.fill_opacity);
  if (paint.stroke.empty()) {
    svg.attr("stroke", "none");
    return;
  }
  svg.attr("stroke", paint.stroke);
  if (paint.stroke_width != 1) svg.attr("stroke-width", paint.stroke_width);
  if (paint.stroke_opacity < 1) svg.attr("stroke-opacity", paint.stroke_opacity);
  if (!paint.dash.empty()) svg.attr("stroke-dasharray", paint.dash);
}

PathData& PathData::command(char name, std::initializer_list<double> values) {
  if (!d_.empty()) d_ += ' ';
  d_ += name;
  for (double value : values) {
    d_ += ' ';
    d_ += format_number(value);
  }
  return *this;
}

PathData& PathData::quad(double cx, double cy, double x, double y) {
  return command('Q', {cx, cy, x, y});
}

PathData& PathData::curve(double c1x, double c1y, double c2x, double c2y, double x, double y) {
  return command('C', {c1x, c1y, c2x, c2y, x, y});
}

PathData& PathData::arc(double rx, double ry, bool sweep, double x, double y) {
  return command('A', {rx, ry, 0, 0, sweep ? 1.0 : 0.0, x, y});
}

PathData& PathData::arc(double rx, double ry, double rotation, bool large, bool sweep, double x,
                        double y) {
  return command('A', {rx, ry, rotation, large ? 1.0 : 0.0, sweep ? 1.0 : 0.0, x, y});
}

PathData& PathData::close() {
  if (!d_.empty()) d_ += " Z";
  return *this;
}

void write_path(SvgWriter& svg, const PathData& path, const Paint& paint, bool filled) {
  if (path.empty() || ((!filled || paint.fill.empty()) && paint.stroke.empty())) return;
  svg.start("path").attr("d", path.str());
  write_paint(svg, paint, filled);
  svg.end();
}

}  // namespace fcp::drawio::render::detail
