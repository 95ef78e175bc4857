#include "domains/lofi/maxpat/attribute_values.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

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
  switch (attribute_kind(name)) {
    case AttributeKind::text:
      return json::string(text);
    case AttributeKind::integer: {
      if (auto integer = integer_of(text)) return *integer;
      if (auto real = real_of(text); real && std::abs(*real) < 9e18)
        return static_cast<std::int64_t>(*real);
      if (name.ends_with("parameter_unitstyle")) {
        if (const int code = unit_style_code(text); code >= 0) return code;
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

std::string attribute_value_problem(std::string_view name, std::string_view text) {
  const AttributeKind kind = attribute_kind(name);
  if (kind == AttributeKind::text || kind == AttributeKind::guess || kind == AttributeKind::atoms ||
      !attribute_value(name, text).is_string())
    return {};
  const std::string got = "; got \"" + std::string(text) + "\"";
  if (name.ends_with("parameter_unitstyle"))
    return std::string(name) +
           " takes Max's unit style: 0-10 or int, float, time (ms), hertz (Hz), decibel (dB), %, "
           "pan, semitones, midi, custom, native" +
           got;
  if (kind == AttributeKind::integer) return std::string(name) + " takes an integer" + got;
  if (kind == AttributeKind::real) return std::string(name) + " takes a number" + got;
  if (is_color_attribute(name))
    return std::string(name) + " takes a colour as numbers 0-1: \"r g b a\"" + got;
  return std::string(name) + " takes numbers separated by spaces" + got;
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

std::map<std::string, std::string> box_attribute_texts(const json::object& box,
                                                       std::string_view also_skip) {
  std::map<std::string, std::string> texts;
  const json::value* maxclass = box.if_contains("maxclass");
  // The text of these boxes is their content (a newobj's class and arguments, a message or
  // comment), which Max sets through the box, not as an attribute.
  const std::string_view cls =
      maxclass != nullptr && maxclass->is_string() ? std::string_view(maxclass->get_string()) : "";
  const bool text_is_content =
      cls == "newobj" || cls == "message" || cls == "comment" || cls == "live.comment";
  std::string text;
  for (const auto& [key, value] : box) {
    if (!is_box_attribute(key) || modelled_elsewhere(key) || key == also_skip) continue;
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
