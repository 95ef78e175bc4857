// Where the model lives in a Max file, in Max's own terms (no private keys):
//   object id        the box's varname (unique), else the box id
//   UI layer, place  "presentation": 1 and presentation_rect; z-order is the order of the boxes,
//                    which Max writes front to back (the newest box first, the backmost last)
//   attributes       box keys with Max's value types; parameter_* in saved_attribute_attributes
//                    .valueof, with "parameter_enable": 1 on the box
//   mapping          a Live parameter is a box with parameter_enable 1 whose valueof has a
//                    parameter_longname (what the Max daemon's `map` sets: longname and
//                    shortname); its property is always "value" — Max keeps no other, so a
//                    mapping to another property reads back as "value"
//   injected script  js/v8: the file is the object's first argument ("v8 /path/lfo.js"), as
//                    Max loads it; jsui/v8ui: the "filename" attribute
//   device name      the file's name (Max and Live show the file name; a patcher has no name)
//   device settings  the patcher's "openinpresentation" and "devicewidth"; the window size is
//                    the size in its "rect"; a new device gets Max's "openrect" [0, 0, 0, 169]
//   parameters       the patcher's "parameters" dictionary follows the boxes that are Live
//                    parameters (maxpat::update_parameters)
// Files written by older fcp versions carry these in a private top-level "fcp" key: it is read
// as a fallback and dropped at the first save with an edit (kept byte for byte without one).
#include "domains/lofi/device_io.hpp"

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/maxpat/parameters.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

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

// The number at `key` of the patcher, or nullopt.
std::optional<double> number_of(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->to_number<double>();
}

Device device_from_patcher(const maxpat::Patcher& patcher, std::string_view name) {
  Device device;
  device.info().name = std::string(name);
  if (auto rect = rect_of(patcher.json, "rect")) {
    device.info().width = (*rect)[2];
    device.info().height = (*rect)[3];
  }
  if (auto presentation = number_of(patcher.json, "openinpresentation"))
    device.info().openinpresentation = static_cast<int>(*presentation);
  if (auto width = number_of(patcher.json, "devicewidth")) device.info().devicewidth = *width;
  // Object ids: unique varnames, else the box id.
  std::map<std::string, int> varnames;
  for (const auto& box : patcher.boxes) {
    const std::string varname = string_of(box.json, "varname");
    if (!varname.empty()) ++varnames[varname];
  }
  std::map<std::string, std::string> id_of_box;
  double order = static_cast<double>(patcher.boxes.size());
  for (const auto& box : patcher.boxes) {
    // A call that must stop ends the device here (see read_device and write_device).
    if (core::call_stop()) break;
    BoxMeaning meaning = meaning_of(box);
    MaxObject& object = meaning.object;
    // Max lists the boxes front to back (the newest first): the last box is the backmost, the
    // first in the model's back-to-front order.
    object.order = order--;
    const std::string varname = string_of(box.json, "varname");
    // "device" names the device itself in ops: an object of that name keeps its box id.
    object.id =
        !varname.empty() && varnames[varname] == 1 && varname != "device" ? varname : box.id();
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

// Writes a setting Max keeps in the patcher unless the patcher already says it (so its bytes
// stay); an absent key means Max's default, which is then not added.
void write_setting(json::object& patcher, std::string_view key, json::value value,
                   double fallback) {
  const double wanted = value.to_number<double>();
  const std::optional<double> saved = number_of(patcher, key);
  if (saved ? *saved == wanted : wanted == fallback) return;
  if (json::value* existing = patcher.if_contains(key)) {
    *existing = std::move(value);
  } else {
    patcher.emplace(key, std::move(value));
  }
}

// Room a new device's window leaves right of and below its objects (Max's toolbar and status
// bar take some of the height).
constexpr double kWindowMarginX = 40;
constexpr double kWindowMarginY = 80;

// The window of a new device whose boxes are `boxes`: the size asked for (new width: height:,
// resize to:), grown to hold every box in both views with a margin, so that the device opens
// with its objects in sight rather than off-screen.
std::array<double, 2> fitted_window(const DeviceInfo& info, const std::vector<maxpat::Box>& boxes) {
  double right = 0, bottom = 0;
  for (const auto& box : boxes) {
    for (const char* key : {"patching_rect", "presentation_rect"}) {
      if (auto rect = rect_of(box.json, key)) {
        right = std::max(right, (*rect)[0] + (*rect)[2]);
        bottom = std::max(bottom, (*rect)[1] + (*rect)[3]);
      }
    }
  }
  return {boxes.empty() ? info.width : std::max(info.width, std::ceil(right + kWindowMarginX)),
          boxes.empty() ? info.height : std::max(info.height, std::ceil(bottom + kWindowMarginY))};
}

void write_settings(const DeviceInfo& info, json::object& patcher) {
  write_setting(patcher, "openinpresentation", info.openinpresentation, 0);
  write_setting(patcher, "devicewidth", info.devicewidth, 0);
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
  // Live's view of a device: its width (0: the presentation's), its height 169 px.
  if (source == nullptr)
    maxpat::insert_after(patcher.json, "rect", "openrect", json::array{0.0, 0.0, 0.0, 169.0});
  write_settings(device.info(), patcher.json);
  std::map<std::string, const maxpat::Box*> old_boxes;
  std::set<std::string> used_ids;
  if (source != nullptr) {
    for (const auto& box : source->boxes) {
      old_boxes[box.id()] = &box;
      used_ids.insert(box.id());
    }
  }
  // Objects made by the tools took their box id when they were made (Device::next_box_id).
  for (const auto& [id, object] : device.objects()) {
    if (!object.box.empty() && !old_boxes.contains(object.box)) used_ids.insert(object.box);
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
  std::set<std::string> given_ids;  // own ids written (two objects never share one)
  // Front to back, as Max writes them: the newest object first, a background behind all last.
  const std::vector<const MaxObject*> back_to_front = device.in_order();
  for (auto it = back_to_front.rbegin(); it != back_to_front.rend(); ++it) {
    // A call that must stop ends the patcher here (write_device drops it).
    if (core::call_stop()) break;
    const MaxObject* object = *it;
    auto old = object->box.empty() ? old_boxes.end() : old_boxes.find(object->box);
    const bool own_id =
        !object->box.empty() && old == old_boxes.end() && !given_ids.contains(object->box);
    maxpat::Box box = box_for(device, *object, old == old_boxes.end() ? nullptr : old->second,
                              own_id ? std::function<std::string()>([&] { return object->box; })
                                     : std::function<std::string()>(fresh_id));
    if (own_id) given_ids.insert(object->box);
    box_of[object->id] = box.id();
    patcher.boxes.push_back(std::move(box));
  }
  // Lines: keep the file's line objects for wires that still exist (the first line of each
  // wire, looked up by its ends: a scan per wire made a 30 000-box save take 6 s).
  using Ends = std::tuple<std::string, int, std::string, int>;
  std::map<Ends, const maxpat::Line*> file_lines;
  if (source != nullptr) {
    for (const auto& line : source->lines) {
      file_lines.try_emplace(Ends{line.source_id(), line.source_outlet(), line.destination_id(),
                                  line.destination_inlet()},
                             &line);
    }
  }
  std::vector<maxpat::Line> lines;
  lines.reserve(device.wires().size());
  for (const auto& wire : device.wires()) {
    const std::string& source_box = box_of[wire.source];
    const std::string& destination_box = box_of[wire.destination];
    auto kept = file_lines.find(Ends{source_box, wire.outlet, destination_box, wire.inlet});
    lines.push_back(kept != file_lines.end()
                        ? *kept->second
                        : maxpat::make_line(source_box, wire.outlet, destination_box, wire.inlet));
  }
  patcher.lines = std::move(lines);
  maxpat::update_parameters(patcher, source == nullptr);
  // An opened file keeps its window (resize alone changes it); a new device's holds its boxes.
  if (source == nullptr) {
    const auto window = fitted_window(device.info(), patcher.boxes);
    update_rect(patcher.json, "rect", {100.0, 100.0, window[0], window[1]});
  }
  return patcher;
}

// True when the device says what its source file says: saving it must give the file back.
bool unchanged_since_open(const Device& device) {
  if (!device.source || device.sizes() != device.source_sizes) return false;
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
    device.source_sizes = device.sizes();
    device.source = std::make_shared<const maxpat::Patcher>(amxd->patcher);
    device.index_source();
    device.source_amxd = std::make_shared<const maxpat::AmxdFile>(std::move(*amxd));
    return device;
  }
  auto patcher = maxpat::read_maxpat(bytes);
  if (!patcher) return patcher.error();
  if (auto stop = core::stop_error("reading the patcher", "no document was opened")) return *stop;
  Device device = device_from_patcher(*patcher, name);
  if (auto stop = core::stop_error("reading the patcher", "no document was opened")) return *stop;
  device.source_sizes = device.sizes();
  device.source = std::make_shared<const maxpat::Patcher>(std::move(*patcher));
  device.index_source();
  return device;
}

core::Result<std::string> write_device(const Device& device, const std::filesystem::path& path) {
  // A device saved as it was opened is its file again, even one an older fcp wrote (whose
  // private key an edited save drops).
  // Inside a call that must stop the steps below end early: what they made is dropped.
  const bool unchanged = unchanged_since_open(device);
  if (auto stop = core::stop_error("writing the device", "nothing was written")) return *stop;
  maxpat::Patcher patcher = unchanged ? *device.source : patcher_for(device);
  if (auto stop = core::stop_error("writing the device", "nothing was written")) return *stop;
  std::string extension = path.extension().string();
  for (char& c : extension)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // A device opened from a container stays one whatever its file's name (Max tells files apart
  // by content; a frozen device may be named .maxpat): its format is the owner's.
  if (extension == ".amxd" || device.source_amxd) {
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

std::array<double, 2> saved_window(const Device& device) {
  if (device.source != nullptr) return {device.info().width, device.info().height};
  std::vector<maxpat::Box> boxes;
  boxes.reserve(device.objects().size());
  for (const auto& [id, object] : device.objects())
    boxes.push_back(saved_box(device, object));
  return fitted_window(device.info(), boxes);
}

std::map<std::string, std::string> saved_device_fields(const Device& device) {
  const maxpat::Patcher patcher =
      unchanged_since_open(device) ? *device.source : patcher_for(device);
  std::map<std::string, std::string> fields;
  std::string text;
  for (const char* key : {"openinpresentation", "devicewidth", "rect"}) {
    const json::value* value = patcher.json.if_contains(key);
    if (value != nullptr && maxpat::attribute_text(*value, text)) fields[key] = text;
  }
  return fields;
}

bool known_class(std::string_view cls) {
  return maxpat::find_object(cls) != nullptr;
}

}  // namespace fcp::lofi
