// Label text: what a user types to refer to a cell, derived from what draw.io stores.
#pragma once

#include <string>
#include <string_view>

#include "core/tokenizer.hpp"

namespace fcp::drawio {

// The plain text of a draw.io value: HTML labels (`html` true) reduced as a browser shows them
// (html_to_text); entities such as `&#10;` are decoded and a literal "\n" becomes a newline
// either way. Leading and trailing whitespace is trimmed.
std::string label_text(std::string_view value, bool html);

using core::quote_token;

// Number of UTF-8 code points (for label-width estimates).
std::size_t utf8_length(std::string_view text);

// Compact number text: 200, 12.5, -3 (no trailing zeros, no exponent for diagram coordinates).
std::string format_number(double value);

}  // namespace fcp::drawio
