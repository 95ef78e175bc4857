#include "domains/lofi/device_boxes.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <tuple>
#include <utility>
#include <vector>

#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi {

namespace json = boost::json;

std::string string_of(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

std::optional<std::array<double, 4>> rect_of(const json::object& box, std::string_view key) {
  const json::value* rect = box.if_contains(key);
  if (rect == nullptr || !rect->is_array() || rect->as_array().size() != 4) return std::nullopt;
  std::array<double, 4> out{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (!rect->as_array()[i].is_number()) return std::nullopt;
    out[i] = rect->as_array()[i].to_number<double>();
  }
  return out;
}

namespace {

// Script classes whose file is their first argument, and those with a "filename" attribute.
bool script_in_arguments(std::string_view cls) {
  return cls == "js" || cls == "v8";
}

bool script_in_filename(std::string_view cls) {
  return cls == "jsui" || cls == "v8ui";
}

// `inject` resolves its file to an absolute path; a relative name ("js lfo.js") is an ordinary
// argument that Max looks up in its search path, not a script fcp injected.
bool is_injected_script(std::string_view atom) {
  const bool absolute = atom.starts_with('/') ||
                        (atom.size() > 2 && std::isalpha(static_cast<unsigned char>(atom[0])) &&
                         atom[1] == ':' && (atom[2] == '/' || atom[2] == '\\'));
  return absolute && (atom.ends_with(".js") || atom.ends_with(".mjs"));
}

// A js/v8 box's argument text split into its injected script (the first atom, when it is an
// absolute .js path) and the rest.
std::pair<std::string, std::string> script_and_args(std::string_view args) {
  const std::vector<std::string> atoms = maxpat::split_atoms(args);
  if (atoms.empty() || !is_injected_script(atoms.front())) return {"", std::string(args)};
  std::size_t end = 0;
  if (!args.empty() && args.front() == '"') {
    end = args.find('"', 1);
    end = end == std::string_view::npos ? args.size() : end + 1;
  } else {
    end = std::min(args.find_first_of(" \t\n"), args.size());
  }
  const std::size_t rest = args.find_first_not_of(" \t\n", end);
  return {atoms.front(), rest == std::string_view::npos ? "" : std::string(args.substr(rest))};
}

// The argument text a js/v8 box is saved with: the script file first.
std::string args_with_script(const std::string& script, const std::string& args) {
  if (script.empty()) return args;
  const bool quote = script.find_first_of(" \t") != std::string::npos;
  std::string text = quote ? "\"" + script + "\"" : script;
  return args.empty() ? text : text + " " + args;
}

// The Live parameter a box is, in the daemon's terms: its parameter_longname when enabled.
std::string parameter_name(const json::object& box) {
  const json::value* enable = box.if_contains("parameter_enable");
  if (enable == nullptr || !enable->is_number() || enable->to_number<double>() != 1) return {};
  const json::value* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) return {};
  const json::value* valueof = saved->as_object().if_contains("valueof");
  return valueof != nullptr && valueof->is_object()
             ? string_of(valueof->as_object(), "parameter_longname")
             : std::string();
}

// The attributes `object` should have in its box: its own, and the names of the Live parameter
// it is mapped to (map, unmap and modify keep a mapped object's parameter_longname equal to the
// mapping's name). A new mapping also names the short name, unless the object has its own.
std::map<std::string, std::string> wanted_attributes(const MaxObject& object,
                                                     const Mapping* mapping,
                                                     const std::string& file_parameter) {
  std::map<std::string, std::string> wanted = object.attrs;
  if (mapping == nullptr) return wanted;
  // An object the mapping makes a parameter (it has no parameter attribute of its own) is
  // saved with what Max writes for a new one even at the defaults (parameter_type, …).
  const bool made_parameter = std::none_of(wanted.begin(), wanted.end(), [](const auto& entry) {
    return maxpat::is_parameter_attribute(entry.first);
  });
  if (made_parameter) {
    for (const auto& [name, code] : maxpat::parameter_defaults(object.cls))
      wanted.try_emplace(std::string(name), code);
  }
  const auto own = wanted.find("parameter_longname");
  const bool named_already = own != wanted.end() && own->second == mapping->parameter;
  wanted["parameter_longname"] = mapping->parameter;
  if (!named_already && !wanted.contains("parameter_shortname") &&
      mapping->parameter != file_parameter)
    wanted["parameter_shortname"] = live_shortname(mapping->parameter);
  return wanted;
}

// Writes into `box` the attributes that differ from what the box says (`in_file`), so that an
// unchanged attribute keeps its bytes.
void update_attributes(maxpat::Box& box, const std::map<std::string, std::string>& wanted,
                       const std::map<std::string, std::string>& in_file) {
  for (const auto& [key, value] : in_file) {
    if (!wanted.contains(key)) maxpat::erase_box_attribute(box.json, key);
  }
  for (const auto& [key, value] : wanted) {
    auto saved = in_file.find(key);
    if (saved == in_file.end() || saved->second != value)
      maxpat::put_box_attribute(box.json, key, value);
  }
}

// The args `object` has in its box: a js/v8 box's script file first.
std::string boxed_args(const Device& device, const MaxObject& object) {
  if (!script_in_arguments(object.cls)) return object.args;
  const auto script = device.scripts().find(object.id);
  return args_with_script(script == device.scripts().end() ? "" : script->second, object.args);
}

bool still_fits(const maxpat::Box& old, const std::string& cls, const std::string& args) {
  return old.class_name() == cls && content_of(old) == args;
}

}  // namespace

bool text_is_content(std::string_view cls) {
  return cls == "message" || cls == "comment" || cls == "live.comment" || cls == "textedit";
}

std::string content_of(const maxpat::Box& box) {
  const std::string maxclass = box.maxclass();
  if (maxclass == "newobj") return box.args();
  return text_is_content(maxclass) ? box.text() : std::string();
}

const maxpat::Box* kept_box(const Device& device, const MaxObject& object) {
  if (device.source == nullptr || object.box.empty()) return nullptr;
  const maxpat::Box* old = device.source_box(object.box);
  if (old == nullptr || !still_fits(*old, object.cls, boxed_args(device, object))) return nullptr;
  return old;
}

BoxMeaning meaning_of(const maxpat::Box& box) {
  BoxMeaning meaning;
  MaxObject& object = meaning.object;
  object.box = box.id();
  object.cls = box.class_name();
  object.args = content_of(box);
  if (script_in_arguments(object.cls))
    std::tie(meaning.script, object.args) = script_and_args(object.args);
  if (script_in_filename(object.cls)) meaning.script = string_of(box.json, "filename");
  object.attrs =
      maxpat::box_attribute_texts(box.json, script_in_filename(object.cls) ? "filename" : "");
  if (auto rect = box.patching_rect()) {
    object.x = (*rect)[0];
    object.y = (*rect)[1];
    object.size = std::array<double, 2>{(*rect)[2], (*rect)[3]};
  }
  if (const auto* presentation = box.json.if_contains("presentation");
      presentation && presentation->is_number() && presentation->to_number<double>() == 1) {
    object.ui = true;
    // A UI layer's place is its presentation rectangle.
    if (auto rect = rect_of(box.json, "presentation_rect")) {
      object.x = (*rect)[0];
      object.y = (*rect)[1];
      object.size = std::array<double, 2>{(*rect)[2], (*rect)[3]};
    }
  }
  meaning.parameter = parameter_name(box.json);
  return meaning;
}

void update_rect(json::object& box, std::string_view key, const std::array<double, 4>& rect) {
  if (rect_of(box, key) != rect)
    maxpat::put_sorted(box, key, json::array{rect[0], rect[1], rect[2], rect[3]});
}

// The box for `object`: its box in the source file where the class and arguments still match,
// changed only where the model differs from it; else a new box made like Max makes them.
maxpat::Box box_for(const Device& device, const MaxObject& object, const maxpat::Box* old,
                    const std::function<std::string()>& fresh_id) {
  const auto script = device.scripts().find(object.id);
  const std::string script_file = script == device.scripts().end() ? "" : script->second;
  const std::string args = boxed_args(device, object);
  const Mapping* mapped = mapping_of(device.mappings(), object.id);
  maxpat::Box box;
  BoxMeaning in_file;
  if (old != nullptr && still_fits(*old, object.cls, args)) {
    box = *old;
    in_file = meaning_of(*old);
    if (object.ui) {
      // A UI layer's place is its presentation rectangle; its patching_rect stays.
      if (!in_file.object.ui) maxpat::put_sorted(box.json, "presentation", 1);
      if (object.size)
        update_rect(box.json, "presentation_rect",
                    {object.x, object.y, (*object.size)[0], (*object.size)[1]});
    } else if (auto rect = box.patching_rect()) {
      const auto size = object.size.value_or(std::array<double, 2>{(*rect)[2], (*rect)[3]});
      update_rect(box.json, "patching_rect", {object.x, object.y, size[0], size[1]});
    }
  } else {
    std::optional<std::array<double, 4>> presentation;
    if (object.ui) {
      const auto size = object.size.value_or(std::array<double, 2>{50, 50});
      presentation = std::array<double, 4>{object.x, object.y, size[0], size[1]};
    }
    box = maxpat::make_box(old != nullptr ? old->id() : fresh_id(), object.cls, args, object.x,
                           object.y, presentation);
    // A UI layer whose box is remade (its class or args changed) keeps the patching_rect of
    // its box: only its presentation_rect is its place. A new UI layer is made as the Max
    // daemon makes it: the same rectangle in both views.
    const auto kept_rect = old != nullptr && object.ui ? old->patching_rect() : std::nullopt;
    if (kept_rect)
      update_rect(box.json, "patching_rect", *kept_rect);
    else if (object.size)
      update_rect(box.json, "patching_rect",
                  {object.x, object.y, (*object.size)[0], (*object.size)[1]});
  }
  update_attributes(box, wanted_attributes(object, mapped, in_file.parameter),
                    in_file.object.attrs);
  if (script_in_filename(object.cls) && script_file != in_file.script) {
    if (script_file.empty())
      box.json.stable_erase("filename");
    else
      maxpat::put_sorted(box.json, "filename", json::string(script_file));
  }
  if (object.id != box.id() && string_of(box.json, "varname") != object.id)
    maxpat::put_sorted(box.json, "varname", json::string(object.id));
  return box;
}

maxpat::Box saved_box(const Device& device, const MaxObject& object) {
  const maxpat::Box* old =
      device.source != nullptr && !object.box.empty() ? device.source_box(object.box) : nullptr;
  return box_for(device, object, old, [] { return std::string("obj-new"); });
}

std::map<std::string, std::string> saved_attributes(const Device& device, const MaxObject& object) {
  const maxpat::Box box = saved_box(device, object);
  auto texts =
      maxpat::saved_attribute_texts(box.json, script_in_filename(object.cls) ? "filename" : "");
  texts.erase("varname");
  return texts;
}

}  // namespace fcp::lofi
