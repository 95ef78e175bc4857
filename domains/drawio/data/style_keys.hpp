// The style keys draw.io (mxGraph) reads, as plain data: what `style` and `modify` may set
// beside their own friendly keys.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace fcp::drawio::data {

// Every known draw.io style key, sorted.
std::span<const std::string_view> drawio_style_keys();
// True when draw.io reads `name` as a style key (case-sensitive, as draw.io is).
bool is_drawio_style_key(std::string_view name);

// The values draw.io reads for a key, for the keys whose values fcp checks before writing them
// (a wrong value would be kept by draw.io and silently ignored when drawing).
enum class StyleValueForm : std::uint8_t {
  number,  // any number (exitX:0.25, strokeWidth:2)
  flag,    // 0 or 1
  choice,  // one of `choices`
};
struct StyleValueRule {
  std::string_view key;
  StyleValueForm form;
  std::span<const std::string_view> choices;  // for choice
};
// The rule for `key`; null when draw.io takes its values as written (colours, shapes, …).
const StyleValueRule* style_value_rule(std::string_view key);

}  // namespace fcp::drawio::data
