// Internal to the SVG renderer: a cell's effective style, as mxGraph's stylesheet resolves it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "domains/drawio/model/cell.hpp"

namespace fcp::drawio::render::detail {

// One key of one of draw.io's named styles (default.xml): the bare tokens `text`, `ellipse`, …
struct NamedStyleEntry {
  std::string_view style;
  std::string_view key;
  std::string_view value;
};
// The named styles, and the defaults for vertices and edges (style_defaults.cpp).
std::span<const NamedStyleEntry> named_styles();
std::optional<std::string_view> base_default(bool edge, std::string_view key);

// Reads a cell's style like mxStylesheet.getCellStyle: tokens apply in order, a bare token
// merges its named style (so `fillColor=red;text;` ends up with text's fillColor=none), and
// keys nobody set come from the vertex or edge defaults. Views the cell; does not copy it.
class StyleView {
 public:
  StyleView(const Cell& cell, bool edge) : cell_(cell), edge_(edge) {}

  std::optional<std::string_view> get(std::string_view key) const;
  std::string_view text(std::string_view key, std::string_view fallback = "") const;
  // A finite number, else `fallback`.
  double number(std::string_view key, double fallback) const;
  // "1"/"true" are true, "0"/"false" false, anything else `fallback`.
  bool flag(std::string_view key, bool fallback) const;
  // A CSS colour safe to write into SVG; "" means none. "default" and unreadable values give
  // `fallback`; light-dark(a,b) gives a.
  std::string color(std::string_view key, std::string_view fallback) const;
  // The shape name ("rectangle" when none is set); bare tokens such as `ellipse` count.
  std::string_view shape() const;
  bool is_edge() const { return edge_; }

 private:
  const Cell& cell_;
  bool edge_;
};

// A CSS colour from a draw.io colour value, or nullopt when it is not one ("" for none).
std::optional<std::string> css_color(std::string_view value);
// A font-family list that is safe to write: the cell's family, then generic fallbacks.
std::string font_family(std::string_view value);

}  // namespace fcp::drawio::render::detail
