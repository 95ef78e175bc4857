// The attributes of Max boxes and Live parameters as plain data: the names Max 8/9 saves in a
// patcher's box or in its saved_attribute_attributes. Left out on purpose: "size" (a slider's
// range, easily taken for the box size, which is size:WxH of add and ui), and "min" and "mult"
// (a dial's, which agents write meaning parameter_mmin: a synonym says so).
#include "domains/lofi/maxpat/attributes.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>

namespace fcp::lofi::maxpat {
namespace {

// clang-format off
constexpr std::string_view attributes[] = {
    // every box
    "patching_rect", "presentation", "presentation_rect", "varname", "hidden", "ignoreclick",
    "background", "hint", "annotation", "annotation_name", "parameter_enable", "color",
    // text and colour
    "fontname", "fontsize", "fontface", "textcolor", "bgcolor", "bordercolor", "textjustification",
    "text", "texton", "linecount", "border", "rounded", "angle", "shape", "mode", "shadow",
    "bgfillcolor_type", "bgfillcolor_color", "bgfillcolor_color1", "bgfillcolor_color2",
    "bgfillcolor_angle", "bgfillcolor_proportion",
    // live.* appearance
    "activedialcolor", "dialcolor", "needlecolor", "tricolor", "trioncolor", "panelcolor",
    "focusbordercolor", "activebgcolor", "activebgoncolor", "bgoncolor", "textoncolor",
    "activetextcolor", "activetextoncolor", "activeslidercolor", "slidercolor", "lcdcolor",
    "lcdbgcolor", "inactivelcdcolor", "showname", "shownumber", "triangle", "appearance",
    "orientation", "relative", "usepicture", "pictures", "automation", "automationon",
    "num_lines_patching", "num_lines_presentation", "multiline", "spacing", "button",
    // other UI objects
    "minimum", "maximum", "format", "triscale", "htricolor", "floatoutput", "checkedcolor", "uncheckedcolor", "blinkcolor", "outlinecolor", "setminmax", "items",
    "prefix", "thickness", "knobcolor", "elementcolor",
    // scripts
    "filename", "autowatch", "embed",
    // Live parameters
    "parameter_longname", "parameter_shortname", "parameter_type", "parameter_mmin",
    "parameter_mmax", "parameter_initial", "parameter_initial_enable", "parameter_unitstyle",
    "parameter_units", "parameter_exponent", "parameter_steps", "parameter_enum",
    "parameter_modmode", "parameter_speedlim", "parameter_defer", "parameter_invisible",
    "parameter_annotation_name", "parameter_info", "parameter_linknames", "parameter_order",
};

// The attributes whose type is not a string, as Max 8/9 save them; the others are strings
// (text kind) when they are listed in text_attributes, else guessed from the value.
constexpr std::string_view text_attributes[] = {
    "varname", "hint", "annotation", "annotation_name", "fontname", "text", "texton",
    "bgfillcolor_type", "automation", "automationon", "prefix", "filename", "parameter_longname",
    "parameter_shortname", "parameter_units", "parameter_annotation_name", "parameter_info",
};
constexpr std::string_view integer_attributes[] = {
    "presentation", "hidden", "ignoreclick", "background", "parameter_enable", "fontface",
    "textjustification", "linecount", "shadow", "showname", "shownumber", "triangle",
    "appearance", "orientation", "relative", "usepicture", "num_lines_patching",
    "num_lines_presentation", "multiline", "button", "mode", "format", "floatoutput",
    "autowatch", "embed", "parameter_type", "parameter_initial_enable", "parameter_unitstyle",
    "parameter_steps", "parameter_modmode", "parameter_defer", "parameter_invisible",
    "parameter_linknames", "parameter_order",
};
constexpr std::string_view real_attributes[] = {
    "fontsize", "border", "rounded", "angle", "spacing", "bgfillcolor_angle",
    "bgfillcolor_proportion", "minimum", "maximum", "triscale", "thickness", "parameter_mmin",
    "parameter_mmax", "parameter_exponent", "parameter_speedlim",
};
constexpr std::string_view reals_attributes[] = {
    "patching_rect", "presentation_rect", "parameter_initial", "setminmax",
};
constexpr std::string_view atoms_attributes[] = {"parameter_enum", "items", "pictures"};

// Max's unit styles (the Unit Style menu of a live.dial's inspector), by code.
constexpr std::string_view unit_styles[][3] = {
    {"int", "integer", ""},   {"float", "", ""},         {"time", "ms", ""},
    {"hertz", "hz", ""},      {"decibel", "db", ""},     {"%", "percent", ""},
    {"pan", "", ""},          {"semitones", "st", ""},   {"midi", "midi note", ""},
    {"custom", "", ""},       {"native", "", ""},
};
// clang-format on

template <std::size_t N>
bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

}  // namespace

bool is_color_attribute(std::string_view name) {
  return name.ends_with("color") || name.starts_with("bgfillcolor_color");
}

AttributeKind attribute_kind(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  if (listed(text_attributes, name)) return AttributeKind::text;
  if (listed(integer_attributes, name)) return AttributeKind::integer;
  if (listed(real_attributes, name)) return AttributeKind::real;
  if (listed(reals_attributes, name) || is_color_attribute(name)) return AttributeKind::reals;
  if (listed(atoms_attributes, name)) return AttributeKind::atoms;
  return AttributeKind::guess;
}

bool is_parameter_attribute(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  return name.starts_with("parameter_") && name != "parameter_enable";
}

int unit_style_code(std::string_view name) {
  std::string lower;
  for (char c : name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t code = 0; code < std::size(unit_styles); ++code) {
    for (std::string_view spelling : unit_styles[code]) {
      if (!spelling.empty() && spelling == lower) return static_cast<int>(code);
    }
  }
  return -1;
}

std::span<const std::string_view> box_attributes() {
  return attributes;
}

bool is_box_attribute(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  return std::find(std::begin(attributes), std::end(attributes), name) != std::end(attributes);
}

}  // namespace fcp::lofi::maxpat
