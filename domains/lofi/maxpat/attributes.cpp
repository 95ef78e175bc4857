// The attributes of Max boxes and Live parameters as plain data: the names Max 8/9 saves in a
// patcher's box or in its saved_attribute_attributes, the classes that have them (the Max
// reference's attribute lists, grouped), their types, ranges and named values (Max's codes:
// the Unit Style menu of a live.dial's inspector is parameter_unitstyle 0-10).
// Left out on purpose: "size" (a slider's range, easily taken for the box size, which is
// size:WxH of add and ui), and "min" and "mult" (a dial's, which agents write meaning
// parameter_mmin: a synonym says so).
#include "domains/lofi/maxpat/attributes.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>

#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi::maxpat {
namespace {

using Kind = AttributeKind;
using Owners = AttributeOwners;

constexpr double kAny = std::numeric_limits<double>::infinity();

// clang-format off
constexpr std::string_view switch_values[] = {"off", "on"};
constexpr std::string_view font_faces[] = {"regular", "bold", "italic", "bold italic"};
constexpr std::string_view justifications[] = {"left", "center|centre", "right"};
constexpr std::string_view panel_shapes[] = {"rectangle", "circle", "triangle", "arrow"};
constexpr std::string_view parameter_types[] = {"float", "int|integer", "enum", "blob"};
constexpr std::string_view unit_styles[] = {
    "int|integer", "float", "time|ms", "hertz|hz", "decibel|db", "%|percent", "pan",
    "semitones|st", "midi|midi note", "custom", "native"};
constexpr std::string_view modulation_modes[] = {"none", "unipolar", "bipolar", "additive",
                                                 "absolute"};
constexpr std::string_view visibilities[] = {"automated|automated and stored",
                                             "stored|stored only", "hidden"};

constexpr AttributeSpec on_off(std::string_view name, Owners owners) {
  return {name, Kind::integer, owners, switch_values, 0, 1};
}
constexpr AttributeSpec colour(std::string_view name, Owners owners) {
  return {name, Kind::reals, owners, {}, 0, 1, 4};
}
constexpr AttributeSpec text(std::string_view name, Owners owners) {
  return {name, Kind::text, owners};
}
constexpr AttributeSpec number(std::string_view name, Owners owners, double low = -kAny) {
  return {name, Kind::real, owners, {}, low};
}
constexpr AttributeSpec integer(std::string_view name, Owners owners, double low = -kAny) {
  return {name, Kind::integer, owners, {}, low};
}
constexpr AttributeSpec named(std::string_view name, Owners owners,
                              std::span<const std::string_view> names) {
  return {name, Kind::integer, owners, names, 0, static_cast<double>(names.size() - 1)};
}

constexpr AttributeSpec table[] = {
    // every box (Max's common box attributes)
    {"patching_rect", Kind::reals, Owners::every_box, {}, -kAny, kAny, 4},
    on_off("presentation", Owners::every_box),
    {"presentation_rect", Kind::reals, Owners::every_box, {}, -kAny, kAny, 4},
    text("varname", Owners::every_box), on_off("hidden", Owners::every_box),
    on_off("ignoreclick", Owners::every_box), on_off("background", Owners::every_box),
    text("hint", Owners::every_box), text("annotation", Owners::every_box),
    colour("color", Owners::every_box), text("fontname", Owners::every_box),
    number("fontsize", Owners::every_box, 1), named("fontface", Owners::every_box, font_faces),
    // text and colour of UI objects
    colour("textcolor", Owners::ui), colour("bgcolor", Owners::ui), colour("bgfillcolor", Owners::ui),
    colour("bordercolor", Owners::ui), named("textjustification", Owners::ui, justifications),
    text("text", Owners::ui), text("texton", Owners::ui), integer("linecount", Owners::ui, 1),
    number("border", Owners::ui, 0), number("rounded", Owners::ui, 0), number("angle", Owners::ui),
    named("shape", Owners::ui, panel_shapes), integer("mode", Owners::ui, 0),
    integer("shadow", Owners::ui), text("bgfillcolor_type", Owners::ui),
    colour("bgfillcolor_color", Owners::ui), colour("bgfillcolor_color1", Owners::ui),
    colour("bgfillcolor_color2", Owners::ui), number("bgfillcolor_angle", Owners::ui),
    {"bgfillcolor_proportion", Kind::real, Owners::ui, {}, 0, 1},
    // live.* appearance
    colour("activedialcolor", Owners::live_ui), colour("dialcolor", Owners::live_ui),
    colour("needlecolor", Owners::live_ui), colour("tricolor", Owners::live_ui),
    colour("trioncolor", Owners::live_ui), colour("panelcolor", Owners::live_ui),
    colour("focusbordercolor", Owners::live_ui), colour("activebgcolor", Owners::live_ui),
    colour("activebgoncolor", Owners::live_ui), colour("bgoncolor", Owners::live_ui),
    colour("textoncolor", Owners::live_ui), colour("activetextcolor", Owners::live_ui),
    colour("activetextoncolor", Owners::live_ui), colour("activeslidercolor", Owners::live_ui),
    colour("slidercolor", Owners::live_ui), colour("lcdcolor", Owners::live_ui),
    colour("lcdbgcolor", Owners::live_ui), colour("inactivelcdcolor", Owners::live_ui),
    on_off("active", Owners::live_ui), on_off("showname", Owners::live_ui),
    on_off("shownumber", Owners::live_ui), on_off("triangle", Owners::live_ui),
    integer("appearance", Owners::live_ui, 0), integer("orientation", Owners::live_ui, 0),
    integer("relative", Owners::live_ui, 0), on_off("usepicture", Owners::live_ui),
    {"pictures", Kind::atoms, Owners::live_ui}, text("automation", Owners::live_ui),
    text("automationon", Owners::live_ui), integer("num_lines_patching", Owners::live_ui, 1),
    integer("num_lines_presentation", Owners::live_ui, 1), on_off("multiline", Owners::live_ui),
    number("spacing", Owners::live_ui), on_off("button", Owners::live_ui),
    // other UI objects
    number("minimum", Owners::ui), number("maximum", Owners::ui), integer("format", Owners::ui, 0),
    number("triscale", Owners::ui, 0), colour("htricolor", Owners::ui),
    on_off("floatoutput", Owners::ui), colour("checkedcolor", Owners::ui),
    colour("uncheckedcolor", Owners::ui), colour("blinkcolor", Owners::ui),
    colour("outlinecolor", Owners::ui), {"setminmax", Kind::reals, Owners::ui, {}, -kAny, kAny, 2},
    {"items", Kind::atoms, Owners::ui}, text("prefix", Owners::ui),
    number("thickness", Owners::ui, 0), colour("knobcolor", Owners::ui),
    colour("elementcolor", Owners::ui),
    // scripts
    text("filename", Owners::scripts), on_off("autowatch", Owners::scripts),
    on_off("embed", Owners::scripts),
    // Live parameters
    on_off("parameter_enable", Owners::parameters), text("annotation_name", Owners::parameters),
    text("parameter_longname", Owners::parameters), text("parameter_shortname", Owners::parameters),
    named("parameter_type", Owners::parameters, parameter_types),
    number("parameter_mmin", Owners::parameters), number("parameter_mmax", Owners::parameters),
    {"parameter_initial", Kind::reals, Owners::parameters},
    on_off("parameter_initial_enable", Owners::parameters),
    named("parameter_unitstyle", Owners::parameters, unit_styles),
    text("parameter_units", Owners::parameters), number("parameter_exponent", Owners::parameters, 0),
    integer("parameter_steps", Owners::parameters, 0),
    {"parameter_enum", Kind::atoms, Owners::parameters},
    named("parameter_modmode", Owners::parameters, modulation_modes),
    number("parameter_speedlim", Owners::parameters, 0),
    on_off("parameter_defer", Owners::parameters),
    named("parameter_invisible", Owners::parameters, visibilities),
    text("parameter_annotation_name", Owners::parameters), text("parameter_info", Owners::parameters),
    on_off("parameter_linknames", Owners::parameters), integer("parameter_order", Owners::parameters),
    // the device's patcher
    on_off("openinpresentation", Owners::device),
    {"devicewidth", Kind::real, Owners::device, {}, 0, 4000},
};
// clang-format on

constexpr auto names_of_table() {
  std::array<std::string_view, std::size(table)> names{};
  for (std::size_t i = 0; i < std::size(table); ++i)
    names[i] = table[i].name;
  return names;
}
constexpr auto kNames = names_of_table();

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text)
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_script_class(std::string_view cls) {
  return cls == "js" || cls == "v8" || cls == "jsui" || cls == "v8ui";
}

}  // namespace

const AttributeSpec* find_attribute(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  for (const auto& spec : table) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::span<const std::string_view> box_attributes() {
  return kNames;
}

bool is_box_attribute(std::string_view name) {
  return find_attribute(name) != nullptr;
}

bool class_has_attribute(std::string_view cls, const AttributeSpec& spec) {
  const ObjectInfo* info = find_object(cls);
  if (info == nullptr) return spec.owners != Owners::device;
  switch (spec.owners) {
    case Owners::every_box:
      return true;
    case Owners::ui:
      return info->ui;
    case Owners::live_ui:
      return info->ui && cls.starts_with("live.");
    case Owners::parameters:
      return info->parameter_enable >= 0;
    case Owners::scripts:
      return is_script_class(cls);
    case Owners::device:
      return false;
  }
  return true;
}

std::vector<std::string> attributes_of(std::string_view cls) {
  std::vector<std::string> names;
  for (const auto& spec : table) {
    if (class_has_attribute(cls, spec)) names.emplace_back(spec.name);
  }
  return names;
}

std::string owners_text(AttributeOwners owners) {
  switch (owners) {
    case Owners::every_box:
      return "every box";
    case Owners::ui:
      return "UI objects (live.dial, panel, comment, message, toggle …)";
    case Owners::live_ui:
      return "the live.* UI objects";
    case Owners::parameters:
      return "objects that can be Live parameters (live.dial, live.toggle, dial, toggle, "
             "number …)";
    case Owners::scripts:
      return "js, v8, jsui and v8ui";
    case Owners::device:
      return "the device itself (modify device …)";
  }
  return {};
}

bool is_color_attribute(std::string_view name) {
  return name.ends_with("color") || name.starts_with("bgfillcolor_color");
}

AttributeKind attribute_kind(std::string_view name) {
  if (const AttributeSpec* spec = find_attribute(name)) return spec->kind;
  return is_color_attribute(name) ? Kind::reals : Kind::guess;
}

bool is_parameter_attribute(std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  return name.starts_with("parameter_") && name != "parameter_enable";
}

std::vector<std::pair<std::string_view, std::string_view>> parameter_defaults(
    std::string_view cls) {
  if (cls == "live.dial" || cls == "live.numbox" || cls == "live.slider")
    return {{"parameter_type", "0"}, {"parameter_unitstyle", "0"}};
  if (cls == "live.gain~") return {{"parameter_type", "0"}, {"parameter_unitstyle", "4"}};
  if (cls == "live.text" || cls == "live.toggle" || cls == "live.menu" || cls == "live.tab")
    return {{"parameter_type", "2"}};
  return {};
}

int choice_code(const AttributeSpec& spec, std::string_view name) {
  const std::string wanted = lower(name);
  for (std::size_t code = 0; code < spec.choices.size(); ++code) {
    std::string_view spellings = spec.choices[code];
    while (!spellings.empty()) {
      const auto bar = spellings.find('|');
      if (spellings.substr(0, bar) == wanted) return static_cast<int>(code);
      spellings = bar == std::string_view::npos ? std::string_view() : spellings.substr(bar + 1);
    }
  }
  return -1;
}

std::string_view choice_name(const AttributeSpec& spec, long long code) {
  if (code < 0 || static_cast<std::size_t>(code) >= spec.choices.size()) return {};
  const std::string_view spellings = spec.choices[static_cast<std::size_t>(code)];
  return spellings.substr(0, spellings.find('|'));
}

std::string choices_text(const AttributeSpec& spec) {
  std::string out = "0-" + std::to_string(spec.choices.size() - 1) + " or ";
  for (std::size_t code = 0; code < spec.choices.size(); ++code)
    out += (code == 0 ? "" : ", ") + std::string(choice_name(spec, static_cast<long long>(code)));
  return out;
}

int unit_style_code(std::string_view name) {
  return choice_code(*find_attribute("parameter_unitstyle"), name);
}

}  // namespace fcp::lofi::maxpat
