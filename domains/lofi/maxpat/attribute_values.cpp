#include "domains/lofi/maxpat/attribute_values.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/resolve.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

std::optional<double> real_of(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // JSON has no NaN or infinity: such text stays a string rather than becoming another number.
  if (error != std::errc() || end != text.data() + text.size() || text.empty() ||
      !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> integer_of(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// A number as Max saves an atom: an int when the text is one, else a double.
json::value atom_value(const std::string& atom) {
  if (auto integer = integer_of(atom)) return *integer;
  if (auto real = real_of(atom)) return *real;
  return json::string(atom);
}

// Colours and lists are written with spaces (Max's atoms) or commas ("0.2,0.2,0.2,1").
std::vector<std::string> atoms_of(std::string_view text) {
  std::string spaced(text);
  if (spaced.find('"') == std::string::npos) {
    for (char& c : spaced)
      if (c == ',') c = ' ';
  }
  return split_atoms(spaced);
}

std::string number_text(double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : std::string("0");
}

bool atom_text(const json::value& value, std::string& out) {
  if (value.is_string()) {
    const std::string_view text = value.get_string();
    const bool quote = text.empty() || text.find_first_of(" \t\n") != std::string_view::npos;
    out += quote ? "\"" + std::string(text) + "\"" : std::string(text);
  } else if (value.is_int64()) {
    out += std::to_string(value.get_int64());
  } else if (value.is_uint64()) {
    out += std::to_string(value.get_uint64());
  } else if (value.is_double()) {
    out += number_text(value.get_double());
  } else {
    return false;
  }
  return true;
}

const json::object* valueof_of(const json::object& box) {
  const json::value* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) return nullptr;
  const json::value* valueof = saved->as_object().if_contains("valueof");
  return valueof != nullptr && valueof->is_object() ? &valueof->as_object() : nullptr;
}

bool modelled_elsewhere(std::string_view name) {
  return name == "patching_rect" || name == "presentation" || name == "presentation_rect" ||
         name == "varname" || name == "parameter_enable";
}

}  // namespace

json::value attribute_value(std::string_view name, std::string_view text) {
  const AttributeSpec* spec = find_attribute(name);
  switch (attribute_kind(name)) {
    case AttributeKind::text:
      return json::string(text);
    case AttributeKind::integer: {
      if (auto integer = integer_of(text)) return *integer;
      if (auto real = real_of(text); real && std::abs(*real) < 9e18)
        return static_cast<std::int64_t>(*real);
      if (spec != nullptr) {
        if (const int code = choice_code(*spec, text); code >= 0) return code;
      }
      return json::string(text);
    }
    case AttributeKind::real: {
      if (auto real = real_of(text)) return *real;
      return json::string(text);
    }
    case AttributeKind::reals: {
      json::array list;
      for (const std::string& atom : atoms_of(text)) {
        auto real = real_of(atom);
        if (!real) return json::string(text);
        list.emplace_back(*real);
      }
      // A colour written as "r g b" is opaque: Max saves four numbers.
      if (is_color_attribute(name) && list.size() == 3) list.emplace_back(1.0);
      return list;
    }
    case AttributeKind::atoms: {
      json::array list;
      for (const std::string& atom : split_atoms(text))
        list.push_back(atom_value(atom));
      return list;
    }
    case AttributeKind::guess:
      break;
  }
  const std::vector<std::string> atoms = split_atoms(text);
  if (atoms.size() == 1 && (integer_of(atoms[0]) || real_of(atoms[0]))) return atom_value(atoms[0]);
  if (atoms.size() > 1) {
    json::array list;
    for (const std::string& atom : atoms)
      list.push_back(atom_value(atom));
    return list;
  }
  return json::string(text);
}

namespace {

std::string bound_text(double value) {
  return number_text(value);
}

// "from 0 to 1", "at least 0", "at most 4", or "" when any number goes.
std::string range_words(const AttributeSpec& spec) {
  const bool low = std::isfinite(spec.minimum), high = std::isfinite(spec.maximum);
  if (low && high) return "from " + bound_text(spec.minimum) + " to " + bound_text(spec.maximum);
  if (low) return "at least " + bound_text(spec.minimum);
  if (high) return "at most " + bound_text(spec.maximum);
  return {};
}

// What attribute `spec` takes, in words.
std::string takes(const AttributeSpec& spec) {
  if (is_color_attribute(spec.name)) return "a colour as numbers 0-1: \"r g b a\"";
  switch (spec.kind) {
    case AttributeKind::integer:
      if (!spec.choices.empty()) return choices_text(spec);
      return "a whole number" + (range_words(spec).empty() ? "" : ", " + range_words(spec));
    case AttributeKind::real:
      return "a number" + (range_words(spec).empty() ? "" : ", " + range_words(spec));
    case AttributeKind::reals:
      if (spec.name.ends_with("_rect")) return "4 numbers: \"x y width height\"";
      if (spec.count > 0) return std::to_string(spec.count) + " numbers separated by spaces";
      return "numbers separated by spaces";
    default:
      return "text";
  }
}

bool in_range(const AttributeSpec& spec, const json::value& value) {
  auto within = [&](const json::value& number) {
    const double v = number.to_number<double>();
    return v >= spec.minimum && v <= spec.maximum;
  };
  if (value.is_number()) return within(value);
  if (!value.is_array()) return true;
  for (const json::value& item : value.get_array()) {
    if (item.is_number() && !within(item)) return false;
  }
  return spec.count == 0 || value.get_array().size() == spec.count;
}

}  // namespace

std::string attribute_value_problem(std::string_view name, std::string_view text) {
  const AttributeSpec* spec = find_attribute(name);
  const AttributeKind kind = attribute_kind(name);
  if (kind == AttributeKind::text || kind == AttributeKind::guess || kind == AttributeKind::atoms)
    return {};
  const json::value value = attribute_value(name, text);
  const std::string got = "; got \"" + std::string(text) + "\"";
  if (spec == nullptr) {  // a colour the table lacks
    if (value.is_string())
      return std::string(name) + " takes a colour as numbers 0-1: \"r g b a\"" + got;
    return {};
  }
  if (value.is_string() || !in_range(*spec, value))
    return std::string(spec->name) + " takes " + takes(*spec) + got;
  return {};
}

std::string attribute_value_fix(std::string_view name, std::string_view text) {
  const AttributeSpec* spec = find_attribute(name);
  if (spec == nullptr || attribute_value_problem(name, text).empty()) return {};
  const json::value value = attribute_value(name, text);
  if (value.is_number() &&
      (spec->kind == AttributeKind::integer || spec->kind == AttributeKind::real)) {
    const double clamped = std::clamp(value.to_number<double>(), spec->minimum, spec->maximum);
    return number_text(clamped);
  }
  if (value.is_string() && !spec->choices.empty()) {
    std::vector<std::string> names;
    for (std::size_t code = 0; code < spec->choices.size(); ++code)
      names.emplace_back(choice_name(*spec, static_cast<long long>(code)));
    const std::string lowered = core::to_lower(text);
    for (const auto& close : core::closest_matches(lowered, names, 1)) {
      if (core::edit_distance(lowered, close) <= 2) return close;
    }
  }
  return {};
}

std::string canonical_attribute_text(std::string_view name, std::string_view text) {
  const json::value value = attribute_value(name, text);
  std::string out;
  if (value.is_string() || !attribute_text(value, out)) return std::string(text);
  return out;
}

bool attribute_text(const json::value& value, std::string& text) {
  text.clear();
  if (!value.is_array()) {
    if (value.is_string()) {
      text = value.get_string();
      return true;
    }
    return atom_text(value, text);
  }
  for (const json::value& item : value.get_array()) {
    if (!text.empty()) text += ' ';
    if (!atom_text(item, text)) return false;
  }
  return true;
}

namespace {

std::map<std::string, std::string> attribute_texts(const json::object& box,
                                                   std::string_view also_skip, bool modelled) {
  std::map<std::string, std::string> texts;
  const json::value* maxclass = box.if_contains("maxclass");
  // The text of these boxes is their content (a newobj's class and arguments, a message,
  // comment or textedit), which Max sets through the box, not as an attribute.
  const std::string_view cls =
      maxclass != nullptr && maxclass->is_string() ? std::string_view(maxclass->get_string()) : "";
  const bool text_is_content = cls == "newobj" || cls == "message" || cls == "comment" ||
                               cls == "live.comment" || cls == "textedit";
  std::string text;
  for (const auto& [key, value] : box) {
    if (!is_box_attribute(key) || (!modelled && modelled_elsewhere(key)) || key == also_skip)
      continue;
    if (key == "text" && text_is_content) continue;
    if (attribute_text(value, text)) texts[std::string(key)] = text;
  }
  if (const json::object* valueof = valueof_of(box)) {
    for (const auto& [key, value] : *valueof) {
      if (!is_box_attribute(key) || key == also_skip) continue;
      if (attribute_text(value, text)) texts[std::string(key)] = text;
    }
  }
  return texts;
}

}  // namespace

std::map<std::string, std::string> box_attribute_texts(const json::object& box,
                                                       std::string_view also_skip) {
  return attribute_texts(box, also_skip, false);
}

std::map<std::string, std::string> saved_attribute_texts(const json::object& box,
                                                         std::string_view also_skip) {
  return attribute_texts(box, also_skip, true);
}

void put_sorted(json::object& object, std::string_view key, json::value value) {
  if (json::value* existing = object.if_contains(key)) {
    *existing = std::move(value);
    return;
  }
  // The new key goes before the first key that sorts after it.
  const auto before = std::find_if(object.begin(), object.end(), [&](const auto& entry) {
    return std::string_view(entry.key()) > key;
  });
  json::object sorted;
  sorted.reserve(object.size() + 1);
  for (auto it = object.begin(); it != before; ++it)
    sorted.emplace(it->key(), std::move(it->value()));
  sorted.emplace(key, std::move(value));
  for (auto it = before; it != object.end(); ++it)
    sorted.emplace(it->key(), std::move(it->value()));
  object = std::move(sorted);
}

void put_box_attribute(json::object& box, std::string_view name, std::string_view text) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  json::value value = attribute_value(name, text);
  if (!is_parameter_attribute(name)) {
    put_sorted(box, name, std::move(value));
    return;
  }
  put_sorted(box, "parameter_enable", 1);
  json::value* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) {
    put_sorted(box, "saved_attribute_attributes", json::object());
    saved = box.if_contains("saved_attribute_attributes");
  }
  json::value* valueof = saved->as_object().if_contains("valueof");
  if (valueof == nullptr || !valueof->is_object()) {
    put_sorted(saved->as_object(), "valueof", json::object());
    valueof = saved->as_object().if_contains("valueof");
  }
  put_sorted(valueof->as_object(), name, std::move(value));
}

void erase_box_attribute(json::object& box, std::string_view name) {
  if (name.starts_with("_parameter_")) name.remove_prefix(1);
  if (!is_parameter_attribute(name)) {
    box.stable_erase(name);
    return;
  }
  json::value* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) return;
  json::value* valueof = saved->as_object().if_contains("valueof");
  if (valueof == nullptr || !valueof->is_object()) return;
  valueof->as_object().stable_erase(name);
  if (valueof->as_object().empty()) saved->as_object().stable_erase("valueof");
  if (saved->as_object().empty()) box.stable_erase("saved_attribute_attributes");
}

}  // namespace fcp::lofi::maxpat
