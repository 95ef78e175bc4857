// The attributes of Max boxes and Live parameters as plain data: the names Max 8/9 saves in a
// patcher's box or in its saved_attribute_attributes. Left out on purpose: "size" (a slider's
// range, easily taken for the box size, which is size:WxH of add and ui), and "min" and "mult"
// (a dial's, which agents write meaning parameter_mmin: a synonym says so).
#include "domains/lofi/maxpat/attributes.hpp"

#include <algorithm>

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
// clang-format on

}  // namespace

std::span<const std::string_view> box_attributes() {
  return attributes;
}

bool is_box_attribute(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  return std::find(std::begin(attributes), std::end(attributes), name) != std::end(attributes);
}

}  // namespace fcp::lofi::maxpat
