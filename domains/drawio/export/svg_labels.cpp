#include "domains/drawio/export/svg_labels.hpp"

#include <algorithm>

#include "domains/drawio/export/label_text.hpp"

namespace fcp::drawio::render::detail {
namespace {

constexpr double kLineHeight = 1.2;  // mxConstants.LINE_HEIGHT

double clamped(const StyleView& style, std::string_view key, double fallback, double low,
               double high) {
  return std::clamp(style.number(key, fallback), low, high);
}

// The area the text aligns in: the cell, its swimlane header, or the box beside/under it.
Box label_area(const Cell& cell, const StyleView& style, Box area, bool horizontal) {
  if (cell.is_swimlane()) {
    const double start = clamped(style, "startSize", 23, 0, kMaxCoordinate);
    if (horizontal) {
      area.h = std::min(area.h, start);
    } else {
      area.w = std::min(area.w, start);
    }
    return area;
  }
  if (style.text("shape") == "cylinder3" && style.flag("boundedLbl", false)) {
    // draw.io's CylinderShape3.getLabelMargins: the text sits in the body, below the top
    // ellipse (2 × size) and above the bottom curve (0.3 × size); without a lid, half the size.
    double size = clamped(style, "size", 15, 0, kMaxCoordinate);
    if (!style.flag("lid", true)) size /= 2;
    const double top = std::min(area.h, 2 * size);
    area.y += top;
    area.h = std::max(0.0, area.h - top - 0.3 * size);
  }
  const std::string_view position = style.text("labelPosition", "center");
  if (position == "left") area.x -= area.w;
  if (position == "right") area.x += area.w;
  const std::string_view vertical = style.text("verticalLabelPosition", "middle");
  if (vertical == "top") area.y -= area.h;
  if (vertical == "bottom") area.y += area.h;
  return area;
}

struct Spacing {
  double left = 0, right = 0, top = 0, bottom = 0;
};

Spacing spacing(const StyleView& style) {
  const double all = clamped(style, "spacing", 2, -1000, 1000);
  return {all + clamped(style, "spacingLeft", 0, -1000, 1000),
          all + clamped(style, "spacingRight", 0, -1000, 1000),
          all + clamped(style, "spacingTop", 0, -1000, 1000),
          all + clamped(style, "spacingBottom", 0, -1000, 1000)};
}

void place_lines(LabelLayout& label, const StyleView& style, const Box& area) {
  const Spacing space = spacing(style);
  const bool bold = (label.font_style & 1) != 0;
  double widest = 0;
  for (const std::string& line : label.lines) {
    widest = std::max(widest, text_width(line, label.font_size, bold));
  }
  const double left = area.x + space.left;
  const double right = area.right() - space.right;
  const std::string_view align = style.text("align", "center");
  if (align == "left") {
    label.anchor = "start", label.x = left, label.extent.x = left;
  } else if (align == "right") {
    label.anchor = "end", label.x = right, label.extent.x = right - widest;
  } else {
    label.anchor = "middle", label.x = (left + right) / 2, label.extent.x = label.x - widest / 2;
  }
  const double block = label.line_height * static_cast<double>(label.lines.size());
  const double top = area.y + space.top;
  const double bottom = area.bottom() - space.bottom;
  const std::string_view vertical = style.text("verticalAlign", "middle");
  double block_top = (top + bottom) / 2 - block / 2;
  if (vertical == "top") block_top = top;
  if (vertical == "bottom") block_top = bottom - block;
  label.first_baseline = block_top + label.line_height / 2 + label.font_size * 0.35;
  label.extent.y = block_top;
  label.extent.w = widest;
  label.extent.h = block;
}

std::string optional_color(const StyleView& style, std::string_view key) {
  const auto value = style.get(key);
  if (!value) return {};
  return css_color(*value).value_or(key == "labelBorderColor" ? "#000000" : "#FFFFFF");
}

}  // namespace

std::optional<LabelLayout> layout_label(const Cell& cell, const StyleView& style, const Box& box) {
  if (!cell.value || cell.value->empty() || style.flag("noLabel", false)) return std::nullopt;
  const bool html = style.flag("html", false);
  LabelLayout label;
  label.lines = label_lines(*cell.value, html);
  if (label.lines.empty()) return std::nullopt;
  label.font_size = clamped(style, "fontSize", style.is_edge() ? 11 : 12, 1, 200);
  label.font_style = static_cast<int>(clamped(style, "fontStyle", 0, 0, 255));
  label.line_height = label.font_size * kLineHeight;
  label.color = style.color("fontColor", "#000000");
  if (label.color.empty()) return std::nullopt;  // fontColor=none hides the text
  label.family = font_family(style.text("fontFamily", "Helvetica"));
  label.opacity = clamped(style, "textOpacity", 100, 0, 100) / 100 *
                  clamped(style, "opacity", 100, 0, 100) / 100;
  label.background = optional_color(style, "labelBackgroundColor");
  label.border = optional_color(style, "labelBorderColor");

  const bool horizontal = style.flag("horizontal", true);
  Box area = label_area(cell, style, box, horizontal);
  if (!horizontal) {
    label.rotation = -90;
    label.pivot = area.center();
    area = Box{label.pivot.x - area.h / 2, label.pivot.y - area.w / 2, area.h, area.w};
  }
  const Spacing space = spacing(style);
  const double wrap_width = area.w - space.left - space.right;
  if (style.text("whiteSpace") == "wrap" && html && wrap_width >= label.font_size) {
    label.lines = wrap_lines(label.lines, wrap_width, label.font_size, (label.font_style & 1) != 0);
  }
  place_lines(label, style, area);
  return label;
}

Box label_bounds(const LabelLayout& label) {
  if (label.rotation == 0) return label.extent;
  // A quarter turn about the pivot swaps the block's extents.
  const Vec c = label.extent.center() - label.pivot;
  const Vec rotated{c.y, -c.x};
  const Vec center = label.pivot + rotated;
  return Box{center.x - label.extent.h / 2, center.y - label.extent.w / 2, label.extent.h,
             label.extent.w};
}

void write_label(SvgWriter& svg, const LabelLayout& label) {
  const bool rotated = label.rotation != 0;
  if (rotated) {
    svg.start("g")
        .attr("transform", "rotate(" + format_number(label.rotation) + " " +
                               format_number(label.pivot.x) + " " + format_number(label.pivot.y) +
                               ")")
        .open();
  }
  if (!label.background.empty() || !label.border.empty()) {
    svg.start("rect")
        .attr("x", label.extent.x - 2)
        .attr("y", label.extent.y)
        .attr("width", label.extent.w + 4)
        .attr("height", label.extent.h)
        .attr("fill", label.background.empty() ? "none" : label.background);
    if (!label.border.empty()) svg.attr("stroke", label.border);
    if (label.opacity < 1) svg.attr("opacity", label.opacity);
    svg.end();
  }
  svg.start("text")
      .attr("font-family", label.family)
      .attr("font-size", label.font_size)
      .attr("fill", label.color)
      .attr("text-anchor", label.anchor);
  if ((label.font_style & 1) != 0) svg.attr("font-weight", "bold");
  if ((label.font_style & 2) != 0) svg.attr("font-style", "italic");
  if ((label.font_style & 12) != 0) {
    std::string decoration;
    if ((label.font_style & 4) != 0) decoration = "underline";
    if ((label.font_style & 8) != 0)
      decoration += decoration.empty() ? "line-through" : " line-through";
    svg.attr("text-decoration", decoration);
  }
  if (label.opacity < 1) svg.attr("opacity", label.opacity);
  svg.open(false);
  double y = label.first_baseline;
  for (const std::string& line : label.lines) {
    if (!line.empty()) {
      svg.start("tspan").attr("x", label.x).attr("y", y).open(false);
      svg.text(line);
      svg.close("tspan", false);
    }
    y += label.line_height;
  }
  svg.close("text");
  if (rotated) svg.close("g");
}

}  // namespace fcp::drawio::render::detail
