#include "domains/drawio/label_room.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "domains/drawio/labels.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {
namespace {

// A cloud's lobes: about 85 % of the width of the ellipse it is drawn in, and only the middle
// 75 % of its height is clear of them.
constexpr double kCloudWidth = 0.85;
constexpr double kCloudHeight = 0.75;
constexpr double kHexagonSize = 0.25;  // draw.io's default slant, as a fraction of the width
constexpr double kCylinderSize = 15;   // draw.io's default size of cylinder3's ellipse, px
constexpr double kCharWidth = 7;       // px per character at fontSize 12
constexpr double kLineHeight = 1.2;    // × fontSize
constexpr double kDefaultFontSize = 12;

double number(const Style& style, std::string_view key, double fallback) {
  const auto text = style.get(key);
  if (!text) return fallback;
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  return ec == std::errc() && ptr == text->data() + text->size() && value >= 0 ? value : fallback;
}

double style_number(const Cell& cell, std::string_view key, double fallback) {
  auto text = cell.style_value(key);
  if (!text) return fallback;
  double value = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  return ec == std::errc() && ptr == text->data() + text->size() && value > 0 ? value : fallback;
}

std::string_view shape_of(const Style& style) {
  if (const auto shape = style.get("shape")) return *shape;
  for (std::string_view bare : {"ellipse", "rhombus"}) {
    if (style.has(bare)) return bare;
  }
  return {};
}

// The hexagon's slant on each side, px.
double hexagon_slant(const Style& style, double width) {
  if (style.get("fixedSize") == "1") return std::min(width / 2, number(style, "size", 20));
  return width * std::min(0.5, number(style, "size", kHexagonSize));
}

// The width of an ellipse of `box` at `block` px of height centred in it (its inscribed box).
double ellipse_width(const Rect& box, double block) {
  const double ratio = std::min(1.0, block / box.height);
  return box.width * std::sqrt(1 - ratio * ratio);
}

Rect centred(const Rect& box, double width, double height) {
  return {box.center_x() - width / 2, box.center_y() - height / 2, std::max(0.0, width),
          std::max(0.0, height)};
}

}  // namespace

Rect label_room(const Style& style, const Rect& box, double block) {
  const std::string_view shape = shape_of(style);
  const double ratio = std::min(1.0, block / box.height);
  if (shape == "cloud") {
    return centred(box, kCloudWidth * ellipse_width(box, block), kCloudHeight * box.height);
  }
  if (shape == "ellipse") return centred(box, ellipse_width(box, block), box.height);
  if (shape == "rhombus") return centred(box, box.width * (1 - ratio), box.height);
  if (shape == "hexagon") {
    // The slanted faces close in by the slant at the top and bottom, half of it halfway.
    return centred(box, box.width - 2 * hexagon_slant(style, box.width) * ratio, box.height);
  }
  if (shape == "cylinder3") {
    // draw.io's CylinderShape3.getLabelMargins with boundedLbl; without it the label is centred
    // over the top ellipse too, and the body is what stays clear.
    double size = number(style, "size", kCylinderSize);
    if (style.get("lid") == "0") size /= 2;
    const double top = std::min(box.height, 2 * size);
    return {box.x, box.y + top, box.width, std::max(0.0, box.height - top - 0.3 * size)};
  }
  return box;
}

namespace {

// The widest line and the number of lines of one paragraph wrapped greedily at `wrap_width` as
// draw.io wraps it (at spaces; a word wider than the line stays whole on a line of its own).
std::pair<double, double> wrapped(std::string_view paragraph, double wrap_width,
                                  double char_width) {
  double widest = 0, line = 0, rows = 1;
  while (!paragraph.empty()) {
    const auto space = paragraph.find(' ');
    const double word = static_cast<double>(utf8_length(paragraph.substr(0, space))) * char_width;
    const double with = line == 0 ? word : line + char_width + word;
    if (line > 0 && with > wrap_width) {
      rows += 1;
      line = word;
    } else {
      line = with;
    }
    widest = std::max(widest, line);
    if (space == std::string_view::npos) break;
    paragraph.remove_prefix(space + 1);
  }
  return {widest, rows};
}

}  // namespace

// An estimate: 7 px per character at fontSize 12, lines of 1.2 × fontSize. In a rectangle
// wrapped labels are compared by their total height, unwrapped ones by their widest line and
// their line count. In a shape whose outline runs inside its box the label is wrapped at the
// box's width as draw.io wraps it, and its lines and rows must fit the room inside the outline.
bool label_too_long(const Cell& cell, const Rect& shape_box) {
  if (shape_box.width <= 0 || shape_box.height <= 0 || cell.is_text()) return false;
  // Clouds, ellipses, diamonds, hexagons and cylinders leave their label less than the box:
  // first the room for one line, then for the block the label makes.
  const double font = style_number(cell, "fontSize", kDefaultFontSize);
  const double line_height = font * kLineHeight;
  Rect box = cell.style ? label_room(*cell.style, shape_box, line_height) : shape_box;
  const bool narrow = box.width != shape_box.width || box.height != shape_box.height;
  if (cell.style_value("autosize") == "1") return false;
  // Labels drawn beside the shape (stencil icons) are not limited by its box.
  if (auto position = cell.style_value("verticalLabelPosition"); position && *position != "middle")
    return false;
  if (auto position = cell.style_value("labelPosition"); position && *position != "center")
    return false;
  const std::string label = cell_label(cell);
  if (label.empty()) return false;
  if (box.width <= 0 || box.height <= 0) return true;
  const double char_width = kCharWidth * font / kDefaultFontSize;
  const bool wrap = cell.style_value("whiteSpace") == "wrap";
  double rows = 0, widest_line = 0;
  std::string_view rest = label;
  while (true) {
    const auto newline = rest.find('\n');
    const std::string_view paragraph = rest.substr(0, newline);
    const double width = static_cast<double>(utf8_length(paragraph)) * char_width;
    if (narrow) {
      // draw.io wraps at the box less its 2 px spacing each side.
      const auto [widest, lines] =
          wrapped(paragraph, wrap ? shape_box.width - 4 : width + 1, char_width);
      widest_line = std::max(widest_line, widest);
      rows += lines;
    } else if (wrap) {
      rows += std::max(1.0, std::ceil(width / box.width));
    } else {
      if (width > box.width) return true;
      rows += 1;
    }
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  if (narrow) {
    box = label_room(*cell.style, shape_box, rows * line_height);
    if (widest_line > box.width) return true;
  }
  return rows * line_height > box.height;
}

}  // namespace fcp::drawio
