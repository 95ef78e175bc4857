// Internal to the SVG renderer: label text as lines (HTML reduced to text), measured and wrapped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::drawio::render::detail {

// At most this much of a label is rendered (in bytes of input, lines of output).
inline constexpr std::size_t kMaxLabelInput = 64 * 1024;
inline constexpr std::size_t kMaxLabelChars = 2000;
inline constexpr std::size_t kMaxLabelLines = 60;

// The label as lines: HTML reduced (drawio::html_to_text) when `html`, else split at newlines;
// empty lines inside are kept, trailing empty lines dropped, the total capped (an ellipsis marks
// the cut).
std::vector<std::string> label_lines(std::string_view value, bool html);

// Estimated advance width of `text` in px at `font_size` (a sans-serif average per character).
double text_width(std::string_view text, double font_size, bool bold);

// Greedy word wrap of each line to `max_width` px at spaces; a word longer than a line stays
// whole on its own line (as in draw.io's HTML labels).
std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, double max_width,
                                    double font_size, bool bold);

}  // namespace fcp::drawio::render::detail
