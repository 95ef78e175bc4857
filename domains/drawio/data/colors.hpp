// Colour values as draw.io stores them: hex forms, the 148 CSS named colours, and "none".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace fcp::drawio::data {

struct NamedColor {
  std::string_view name;  // "steelblue"
  std::string_view hex;   // "#4682b4"
};

// A colour value as draw.io stores it: "#rgb"/"#rrggbb" (returned lowercased as #rrggbb), one of
// the 148 CSS named colours (returned as its #rrggbb), or "none"; nullopt for anything else.
std::optional<std::string> parse_color(std::string_view text);

// Names and hex forms accepted, for error messages ("use #RRGGBB, a CSS colour name or a theme").
std::string_view color_help();

// The 148 CSS named colours, sorted by name.
std::span<const NamedColor> css_colors();

// The CSS named colour with this name, ignoring ASCII case (O(log n)); nullptr if unknown.
const NamedColor* find_css_color(std::string_view name);

}  // namespace fcp::drawio::data
