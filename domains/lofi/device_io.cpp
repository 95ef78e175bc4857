// Where the model lives in a Max file, in Max's own terms (no private keys):
//   object id        the box's varname (unique), else the box id
//   UI layer, place  "presentation": 1 and presentation_rect; z-order is the order of the boxes
//   attributes       box keys with Max's value types; parameter_* in saved_attribute_attributes
//                    .valueof, with "parameter_enable": 1 on the box
//   mapping          a Live parameter is a box with parameter_enable 1 whose valueof has a
//                    parameter_longname (what the Max daemon's `map` sets: longname and
//                    shortname); its property is always "value" — Max keeps no other, so a
//                    mapping to another property reads back as "value"
//   injected script  js/v8: the file is the object's first argument ("v8 /path/lfo.js"), as
//                    Max loads it; jsui/v8ui: the "filename" attribute
//   device name      the file's name (Max and Live show the file name; a patcher has no name)
// Files written by older fcp versions carry these in a private top-level "fcp" key: it is read
// as a fallback and dropped at the first save with an edit (kept byte for byte without one).
#include "domains/lofi/device_io.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

std::string string_of(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

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

// What one box of a file says about its object, beside the id.
struct BoxMeaning {
  MaxObject object;
  std::string script;
  std::string parameter;  // the Live parameter it is mapped to ("" = none)
};

BoxMeaning meaning_of(const maxpat::Box& box) {
  BoxMeaning meaning;
  MaxObject& object = meaning.object;
  object.box = box.id();
  object.cls = box.class_name();
  object.args = box.args();
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

// What an older fcp kept in its private "fcp" key: the name, mappings with their property,
// scripts and the attributes it had not yet written into the boxes.
void read_private_key(const json::object& meta, Device& device) {
  if (auto saved = string_of(meta, "name"); !saved.empty()) device.info().name = saved;
  if (const auto* maps = meta.if_contains("mappings"); maps && maps->is_array()) {
    for (const auto& m : maps->as_array()) {
      if (!m.is_object()) continue;
      Mapping mapping{string_of(m.as_object(), "parameter"), string_of(m.as_object(), "object"),
                      string_of(m.as_object(), "property")};
      if (!mapping.parameter.empty() && device.object(mapping.object) != nullptr)
        device.put_mapping(mapping);
    }
  }
  if (const auto* scripts = meta.if_contains("scripts"); scripts && scripts->is_object()) {
    for (const auto& [object, path] : scripts->as_object()) {
      if (path.is_string() && device.object(std::string(object)) != nullptr)
        device.put_script(std::string(object), std::string(path.as_string()));
    }
  }
  if (const auto* attrs = meta.if_contains("attrs"); attrs && attrs->is_object()) {
    for (const auto& [id, values] : attrs->as_object()) {
      const MaxObject* known = device.object(std::string(id));
      if (known == nullptr || !values.is_object()) continue;
      MaxObject object = *known;
      for (const auto& [key, value] : values.as_object()) {
        if (value.is_string()) object.attrs[std::string(key)] = std::string(value.as_string());
      }
      device.put_object(std::move(object));
    }
  }
}

Device device_from_patcher(const maxpat::Patcher& patcher, std::string_view name) {
  Device device;
  device.info().name = std::string(name);
  if (auto rect = rect_of(patcher.json, "rect")) {
    device.info().width = (*rect)[2];
    device.info().height = (*rect)[3];
  }
  // Object ids: unique varnames, else the box id.
  std::map<std::string, int> varnames;
  for (const auto& box : patcher.boxes) {
    const std::string varname = string_of(box.json, "varname");
    if (!varname.empty()) ++varnames[varname];
  }
  std::map<std::string, std::string> id_of_box;
  for (const auto& box : patcher.boxes) {
    BoxMeaning meaning = meaning_of(box);
    MaxObject& object = meaning.object;
    const std::string varname = string_of(box.json, "varname");
    object.id = !varname.empty() && varnames[varname] == 1 ? varname : box.id();
    if (device.object(object.id) != nullptr) object.id = box.id();
    if (object.ui) object.layer = object.id;
    if (!meaning.script.empty()) device.put_script(object.id, meaning.script);
    // Two boxes of one name (Max renames the second when it loads): the first is the parameter.
    if (!meaning.parameter.empty() && !device.mappings().contains(meaning.parameter))
      device.put_mapping({meaning.parameter, object.id, "value"});
    id_of_box[box.id()] = object.id;
    device.put_object(std::move(object));
  }
  if (const auto* meta = patcher.json.if_contains("fcp"); meta && meta->is_object())
    read_private_key(meta->as_object(), device);
  for (const auto& line : patcher.lines) {
    auto source = id_of_box.find(line.source_id());
    auto destination = id_of_box.find(line.destination_id());
    if (source == id_of_box.end() || destination == id_of_box.end()) continue;
    device.add_wire(
        {source->second, line.source_outlet(), destination->second, line.destination_inlet()});
  }
  return device;
}

// The attributes `object` should have in its box: its own, and the names of the Live parameter
// it is mapped to (map, unmap and modify keep a mapped object's parameter_longname equal to the
// mapping's name). A new mapping also names the short name, unless the object has its own.
std::map<std::string, std::string> wanted_attributes(const MaxObject& object,
                                                     const Mapping* mapping,
                                                     const std::string& file_parameter) {
  std::map<std::string, std::string> wanted = object.attrs;
  if (mapping == nullptr) return wanted;
  wanted["parameter_longname"] = mapping->parameter;
  if (!wanted.contains("parameter_shortname") && mapping->parameter != file_parameter)
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
  const std::string args =
      script_in_arguments(object.cls) ? args_with_script(script_file, object.args) : object.args;
  const Mapping* mapped = mapping_of(device.mappings(), object.id);
  maxpat::Box box;
  BoxMeaning in_file;
  if (old != nullptr && old->class_name() == object.cls && old->args() == args) {
    box = *old;
    in_file = meaning_of(*old);
    if (object.ui) {
      if (object.size)
        update_rect(box.json, "presentation_rect",
                    {object.x, object.y, (*object.size)[0], (*object.size)[1]});
    } else if (auto rect = box.patching_rect()) {
      if ((*rect)[0] != object.x || (*rect)[1] != object.y)
        update_rect(box.json, "patching_rect", {object.x, object.y, (*rect)[2], (*rect)[3]});
    }
  } else {
    std::optional<std::array<double, 4>> presentation;
    if (object.ui) {
      const auto size = object.size.value_or(std::array<double, 2>{50, 50});
      presentation = std::array<double, 4>{object.x, object.y, size[0], size[1]};
    }
    box = maxpat::make_box(old != nullptr ? old->id() : fresh_id(), object.cls, args, object.x,
                           object.y, presentation);
    if (object.size && !object.ui)
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

// The patcher for a device: the source file's boxes and lines where they still exist (changed
// where the model changed), new ones made like Max makes them.
maxpat::Patcher patcher_for(const Device& device) {
  const maxpat::Patcher* source = device.source.get();
  maxpat::Patcher patcher =
      source ? *source : maxpat::make_patcher(device.info().width, device.info().height);
  patcher.json.stable_erase("fcp");
  if (source != nullptr) {
    if (auto rect = rect_of(patcher.json, "rect");
        rect && ((*rect)[2] != device.info().width || (*rect)[3] != device.info().height))
      update_rect(patcher.json, "rect",
                  {(*rect)[0], (*rect)[1], device.info().width, device.info().height});
  }
  std::map<std::string, const maxpat::Box*> old_boxes;
  std::set<std::string> used_ids;
  if (source != nullptr) {
    for (const auto& box : source->boxes) {
      old_boxes[box.id()] = &box;
      used_ids.insert(box.id());
    }
  }
  int next = 1;
  auto fresh_id = [&] {
    std::string id;
    do {
      id = "obj-" + std::to_string(next++);
    } while (used_ids.contains(id));
    used_ids.insert(id);
    return id;
  };
  patcher.boxes.clear();
  std::map<std::string, std::string> box_of;
  for (const MaxObject* object : device.in_order()) {
    auto old = object->box.empty() ? old_boxes.end() : old_boxes.find(object->box);
    maxpat::Box box =
        box_for(device, *object, old == old_boxes.end() ? nullptr : old->second, fresh_id);
    box_of[object->id] = box.id();
    patcher.boxes.push_back(std::move(box));
  }
  // Lines: keep the file's line objects for wires that still exist.
  std::vector<maxpat::Line> lines;
  for (const auto& wire : device.wires()) {
    const std::string& source_box = box_of[wire.source];
    const std::string& destination_box = box_of[wire.destination];
    const maxpat::Line* kept = nullptr;
    if (source != nullptr) {
      for (const auto& line : source->lines) {
        if (line.source_id() == source_box && line.source_outlet() == wire.outlet &&
            line.destination_id() == destination_box && line.destination_inlet() == wire.inlet) {
          kept = &line;
          break;
        }
      }
    }
    lines.push_back(kept ? *kept
                         : maxpat::make_line(source_box, wire.outlet, destination_box, wire.inlet));
  }
  patcher.lines = std::move(lines);
  return patcher;
}

// True when the device says what its source file says: saving it must give the file back.
bool unchanged_since_open(const Device& device) {
  if (!device.source) return false;
  const Device as_opened = device_from_patcher(*device.source, device.info().name);
  return as_opened.info() == device.info() && as_opened.objects() == device.objects() &&
         as_opened.wires() == device.wires() && as_opened.mappings() == device.mappings() &&
         as_opened.scripts() == device.scripts();
}

}  // namespace

core::Result<Device> read_device(std::string_view bytes, std::string_view name) {
  if (bytes.starts_with("ampf")) {
    auto amxd = maxpat::read_amxd(bytes);
    if (!amxd) return amxd.error();
    Device device = device_from_patcher(amxd->patcher, name);
    device.info().type = amxd->device_type;
    device.source = std::make_shared<const maxpat::Patcher>(amxd->patcher);
    device.source_amxd = std::make_shared<const maxpat::AmxdFile>(std::move(*amxd));
    return device;
  }
  auto patcher = maxpat::read_maxpat(bytes);
  if (!patcher) return patcher.error();
  Device device = device_from_patcher(*patcher, name);
  device.source = std::make_shared<const maxpat::Patcher>(std::move(*patcher));
  return device;
}

core::Result<std::string> write_device(const Device& device, const std::filesystem::path& path) {
  // A device saved as it was opened is its file again, even one an older fcp wrote (whose
  // private key an edited save drops).
  maxpat::Patcher patcher = unchanged_since_open(device) ? *device.source : patcher_for(device);
  std::string extension = path.extension().string();
  for (char& c : extension)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".amxd") {
    // A new device gets make_amxd's keys (the "project" block Live needs); an opened one keeps
    // its container and takes the edited patcher.
    if (!device.source_amxd)
      return maxpat::write_amxd(maxpat::make_amxd(std::move(patcher), device.info().type));
    maxpat::AmxdFile file = *device.source_amxd;
    file.patcher = std::move(patcher);
    file.device_type = device.info().type;
    return maxpat::write_amxd(file);
  }
  return maxpat::write_maxpat(patcher);
}

bool known_class(std::string_view cls) {
  return maxpat::find_object(cls) != nullptr;
}

}  // namespace fcp::lofi
