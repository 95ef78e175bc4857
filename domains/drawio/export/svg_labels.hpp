// Internal to the SVG renderer: where a cell's label goes and how it is written as <text>.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"
#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio::render::detail {

struct LabelLayout {
  std::vector<std::string> lines;
  double x = 0;  // the anchor of every line
  double first_baseline = 0;
  double line_height = 0;
  double font_size = 12;
  std::string anchor;  // text-anchor: start, middle or end
  std::string color;
  std::string family;
  int font_style = 0;  // draw.io bits: 1 bold, 2 italic, 4 underline, 8 strike-through
  double opacity = 1;
  std::string background;  // "" for none
  std::string border;
  Box extent;           // the estimated text block, before rotation
  double rotation = 0;  // degrees about `pivot` (vertical labels)
  Vec pivot;
};

// The label of `cell` laid out in `box` (its bounds; a point-sized box for edge labels) per
// labelPosition, verticalLabelPosition, align, verticalAlign, spacing*, horizontal and
// whiteSpace=wrap; swimlanes put it in their header. nullopt when there is nothing to show.
std::optional<LabelLayout> layout_label(const Cell& cell, const StyleView& style, const Box& box);

// The box the label occupies after rotation (for the page bounds).
Box label_bounds(const LabelLayout& label);

void write_label(SvgWriter& svg, const LabelLayout& label);

}  // namespace fcp::drawio::render::detail
