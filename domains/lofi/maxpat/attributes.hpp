// The attributes a Max box or a Live parameter has (bgcolor, presentation_rect,
// parameter_longname …): what `modify` and `ui` may set, as plain data (attributes.cpp).
#pragma once

#include <span>
#include <string_view>

namespace fcp::lofi::maxpat {

// Every attribute of the table, grouped: every box, text and colour, live.* appearance, other UI
// objects, scripts, Live parameters.
std::span<const std::string_view> box_attributes();

// A name of the table, also in Max's scripting spelling of the parameter attributes
// (`_parameter_longname`).
bool is_box_attribute(std::string_view name);

}  // namespace fcp::lofi::maxpat
