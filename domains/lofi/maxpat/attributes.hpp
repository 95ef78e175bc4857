// The attributes of Max boxes and Live parameters (bgcolor, presentation_rect,
// parameter_longname …) as plain data (attributes.cpp): which classes have each, the type Max
// saves it with, its range or its named values. What `modify` and `ui` may set.
#pragma once

#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fcp::lofi::maxpat {

// The JSON type Max saves an attribute's value with.
enum class AttributeKind {
  text,     // a string: "parameter_longname" : "Wow Rate"
  integer,  // an int: "parameter_unitstyle" : 3, "presentation" : 1
  real,     // a double: "parameter_mmax" : 4.0
  reals,    // a list of doubles: "bgcolor" : [ 0.2, 0.2, 0.2, 1.0 ], "parameter_initial" : [ 0.5 ]
  atoms,    // a list of symbols and numbers: "parameter_enum" : [ "one", "two" ]
  guess,    // not in the table: a number stays a number, several atoms a list
};

// Which boxes have an attribute.
enum class AttributeOwners {
  every_box,   // every box (Max's common box attributes)
  ui,          // boxes with their own maxclass (live.dial, panel, comment …)
  live_ui,     // the live.* UI objects
  parameters,  // objects that can be Live parameters (live.dial, dial, toggle …)
  scripts,     // js, v8, jsui, v8ui
  device,      // no box: the device's patcher (`modify device openinpresentation:1`)
};

struct AttributeSpec {
  std::string_view name;
  AttributeKind kind;
  AttributeOwners owners;
  // Integer attributes with named values: the names of 0, 1, 2 …, other spellings after '|'
  // ("hertz|hz"). Empty: none.
  std::span<const std::string_view> choices = {};
  double minimum = -std::numeric_limits<double>::infinity();
  double maximum = std::numeric_limits<double>::infinity();
  std::size_t count = 0;  // reals: exactly this many numbers (4 for a colour or rect); 0: any
};

// The entry for `name` (also in Max's scripting spelling `_parameter_longname`); null when the
// table lacks it.
const AttributeSpec* find_attribute(std::string_view name);

// Every attribute name of the table, in the table's order.
std::span<const std::string_view> box_attributes();

// A name of the table (also `_parameter_…`).
bool is_box_attribute(std::string_view name);

// Whether boxes of class `cls` have the attribute. Classes the object table lacks have every
// attribute (what they take cannot be known).
bool class_has_attribute(std::string_view cls, const AttributeSpec& spec);
// The attributes of the table that class `cls` has, in the table's order.
std::vector<std::string> attributes_of(std::string_view cls);
// "UI objects (live.dial, panel, comment …)": who has the attributes of `owners`.
std::string owners_text(AttributeOwners owners);

AttributeKind attribute_kind(std::string_view name);
bool is_color_attribute(std::string_view name);

// True for the attributes of a Live parameter, which Max saves in the box's
// saved_attribute_attributes.valueof, not in the box (parameter_enable stays in the box).
bool is_parameter_attribute(std::string_view name);

// The parameter attributes Max writes in a `cls` box's valueof even at their defaults, with those
// defaults (codes): parameter_type, and parameter_unitstyle for the classes with a Unit Style.
// As the Live objects of the corpus (../shared/corpus/maxpat) have them: live.dial and
// live.numbox float (0) in Int (0), live.slider float in Int, live.gain~ float in dB (4),
// live.text, live.toggle, live.menu and live.tab enum (2). Empty for other classes.
std::vector<std::pair<std::string_view, std::string_view>> parameter_defaults(std::string_view cls);

// The code of a named value of `spec` ("hertz", "Hz" → 3 for parameter_unitstyle), or -1.
int choice_code(const AttributeSpec& spec, std::string_view name);
// The name of code `code` of `spec` ("hertz"), or "" when it has none.
std::string_view choice_name(const AttributeSpec& spec, long long code);
// "0-10 or int, float, time, …": what an integer attribute with names takes.
std::string choices_text(const AttributeSpec& spec);

// Max's integer code of a unit style name ("hertz", "Hz", "dB", "%", …), or -1.
int unit_style_code(std::string_view name);

}  // namespace fcp::lofi::maxpat
