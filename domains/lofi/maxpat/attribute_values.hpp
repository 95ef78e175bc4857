// Attribute values between the text an agent writes (`bgcolor:"0.2 0.2 0.2 1"`) and the JSON
// value Max saves (`"bgcolor" : [ 0.2, 0.2, 0.2, 1.0 ]`), and where in a box Max keeps them.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <map>
#include <string>
#include <string_view>

namespace fcp::lofi::maxpat {

// The value Max saves for attribute `name` set to `text` (see AttributeKind): numbers for
// integer and real attributes (a named value is its code: parameter_unitstyle "hertz" → 3),
// lists for colours (three numbers get an alpha of 1), rects, parameter_initial and enums; text
// that does not fit the kind stays a string.
boost::json::value attribute_value(std::string_view name, std::string_view text);

// Why `text` cannot be attribute `name`'s value in Max (a colour that is not numbers, a unit
// style Max does not have, a number outside the attribute's range …), or "" when it can.
std::string attribute_value_problem(std::string_view name, std::string_view text);

// For a value with a problem: the value meant, when it can be told (the nearest number in the
// range, the closest named value: "hertzz" → "hertz"); else "".
std::string attribute_value_fix(std::string_view name, std::string_view text);

// The value as the model keeps it: the text of what Max saves ("4" for parameter_mmax 4.0,
// "3" for parameter_unitstyle hertz, "1 0 0 1" for the colour "1,0,0"); text Max keeps as a
// string stays as written.
std::string canonical_attribute_text(std::string_view name, std::string_view text);

// The text of a saved value, as an agent would write it: numbers shortest ("4", "0.05"),
// lists as space-separated atoms (symbols with spaces in double quotes). False for values that
// are not atoms (objects, nested lists): the model leaves those to the box JSON.
bool attribute_text(const boost::json::value& value, std::string& text);

// The attributes of a box as the model keeps them: every attribute of the table found in the
// box and in its saved_attribute_attributes.valueof, as text. Left out: what the model keeps
// elsewhere (patching_rect, presentation, presentation_rect, varname, parameter_enable, and a
// text of a newobj, message, comment or textedit, which is its content) and `also_skip`.
std::map<std::string, std::string> box_attribute_texts(const boost::json::object& box,
                                                       std::string_view also_skip = {});
// Every attribute of the table found in the box, those the model keeps elsewhere included
// (patching_rect, presentation, presentation_rect, varname, parameter_enable): what the box says.
std::map<std::string, std::string> saved_attribute_texts(const boost::json::object& box,
                                                         std::string_view also_skip = {});

// Sets attribute `name` where Max keeps it: a parameter attribute in
// saved_attribute_attributes.valueof (and "parameter_enable": 1 on the box), any other in the
// box. A key already present keeps its place; a new one goes where Max's alphabetical order
// puts it.
void put_box_attribute(boost::json::object& box, std::string_view name, std::string_view text);

// Removes attribute `name` from where Max keeps it (empty valueof/saved_attribute_attributes
// objects go too).
void erase_box_attribute(boost::json::object& box, std::string_view name);

// `object[key] = value`, keeping the place of an existing key and putting a new one before the
// first key that sorts after it (Max writes the keys of a box alphabetically).
void put_sorted(boost::json::object& object, std::string_view key, boost::json::value value);

}  // namespace fcp::lofi::maxpat
