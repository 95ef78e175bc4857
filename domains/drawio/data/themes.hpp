// The 9 built-in colour themes (fill, stroke and optional font colour).
#pragma once

#include <span>
#include <string_view>

namespace fcp::drawio::data {

struct Theme {
  std::string_view name, fill, stroke, font_color;  // font_color empty when none
};

// The 9 built-ins in card order: blue green red yellow orange purple gray dark white.
std::span<const Theme> themes();

// The built-in theme with this name, ignoring ASCII case; nullptr if unknown.
const Theme* find_theme(std::string_view name);

// The built-in theme whose fill is this colour (case-insensitive "#rrggbb"), nullptr if none; used
// to report a shape's theme from its fill.
const Theme* theme_with_fill(std::string_view fill);

}  // namespace fcp::drawio::data
