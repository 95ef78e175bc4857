// The style keys draw.io (mxGraph) reads, as plain data: what `style` and `modify` may set
// beside their own friendly keys.
#pragma once

#include <span>
#include <string_view>

namespace fcp::drawio::data {

// Every known draw.io style key, sorted.
std::span<const std::string_view> drawio_style_keys();
// True when draw.io reads `name` as a style key (case-sensitive, as draw.io is).
bool is_drawio_style_key(std::string_view name);

}  // namespace fcp::drawio::data
