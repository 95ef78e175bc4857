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

// The JSON type Max saves an attribute's value with.
enum class AttributeKind {
  text,     // a string: "parameter_longname" : "Wow Rate"
  integer,  // an int: "parameter_unitstyle" : 3, "presentation" : 1
  real,     // a double: "parameter_mmax" : 4.0
  reals,    // a list of doubles: "bgcolor" : [ 0.2, 0.2, 0.2, 1.0 ], "parameter_initial" : [ 0.5 ]
  atoms,    // a list of symbols and numbers: "parameter_enum" : [ "one", "two" ]
  guess,    // not in the table of kinds: a number stays a number, several atoms a list
};
AttributeKind attribute_kind(std::string_view name);
bool is_color_attribute(std::string_view name);

// True for the attributes of a Live parameter, which Max saves in the box's
// saved_attribute_attributes.valueof, not in the box (parameter_enable stays in the box).
bool is_parameter_attribute(std::string_view name);

// Max's integer code of a unit style name ("hertz", "Hz", "dB", "%", …), or -1.
int unit_style_code(std::string_view name);

}  // namespace fcp::lofi::maxpat
