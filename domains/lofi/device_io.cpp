#include "domains/lofi/device_io.hpp"

#include <boost/json.hpp>
#include <map>
#include <set>

#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

std::string string_of(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : std::string();
}

Device device_from_patcher(const maxpat::Patcher& patcher, std::string_view name) {
  Device device;
  device.info().name = std::string(name);
  if (const auto* rect = patcher.json.if_contains("rect");
      rect && rect->is_array() && rect->as_array().size() == 4) {
    const auto& r = rect->as_array();
    if (r[2].is_number() && r[3].is_number()) {
      device.info().width = r[2].to_number<double>();
      device.info().height = r[3].to_number<double>();
    }
  }
  // Object ids: unique varnames, else the box id.
  std::map<std::string, int> varnames;
  for (const auto& box : patcher.boxes) {
    const std::string varname = string_of(box.json, "varname");
    if (!varname.empty()) ++varnames[varname];
  }
  std::map<std::string, std::string> id_of_box;
  for (const auto& box : patcher.boxes) {
    MaxObject object;
    const std::string varname = string_of(box.json, "varname");
    object.id = !varname.empty() && varnames[varname] == 1 ? varname : box.id();
    if (device.object(object.id) != nullptr) object.id = box.id();
    object.box = box.id();
    object.cls = box.class_name();
    object.args = box.args();
    if (auto rect = box.patching_rect()) {
      object.x = (*rect)[0];
      object.y = (*rect)[1];
      object.size = std::array<double, 2>{(*rect)[2], (*rect)[3]};
    }
    if (const auto* presentation = box.json.if_contains("presentation");
        presentation && presentation->is_number() && presentation->to_number<double>() == 1) {
      object.ui = true;
      object.layer = object.id;
      // A UI layer's place is its presentation rectangle.
      if (const auto* rect = box.json.if_contains("presentation_rect");
          rect && rect->is_array() && rect->as_array().size() == 4) {
        const auto& r = rect->as_array();
        if (r[0].is_number() && r[1].is_number() && r[2].is_number() && r[3].is_number()) {
          object.x = r[0].to_number<double>();
          object.y = r[1].to_number<double>();
          object.size = std::array<double, 2>{r[2].to_number<double>(), r[3].to_number<double>()};
        }
      }
    }
    id_of_box[box.id()] = object.id;
    device.put_object(std::move(object));
  }
  // What fcp keeps beside the boxes: the device's name and type, mappings, injected scripts and
  // UI attributes (Max ignores the unknown "fcp" key).
  if (const auto* fcp = patcher.json.if_contains("fcp"); fcp && fcp->is_object()) {
    const auto& meta = fcp->as_object();
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
  for (const auto& line : patcher.lines) {
    auto source = id_of_box.find(line.source_id());
    auto destination = id_of_box.find(line.destination_id());
    if (source == id_of_box.end() || destination == id_of_box.end()) continue;
    device.add_wire(
        {source->second, line.source_outlet(), destination->second, line.destination_inlet()});
  }
  return device;
}

// The patcher for a device: the source file's boxes and lines where they still exist (updated),
// new ones made like Max makes them.
maxpat::Patcher patcher_for(const Device& device) {
  maxpat::Patcher patcher = device.source
                                ? *device.source
                                : maxpat::make_patcher(device.info().width, device.info().height);
  std::map<std::string, const maxpat::Box*> old_boxes;
  const maxpat::Patcher* source = device.source.get();
  if (source != nullptr) {
    for (const auto& box : source->boxes)
      old_boxes[box.id()] = &box;
  }
  patcher.boxes.clear();
  std::map<std::string, std::string> box_of;
  std::set<std::string> used_ids;
  for (const auto& [id, box] : old_boxes)
    used_ids.insert(id);
  int next = 1;
  auto fresh_id = [&] {
    std::string id;
    do {
      id = "obj-" + std::to_string(next++);
    } while (used_ids.contains(id));
    used_ids.insert(id);
    return id;
  };
  for (const MaxObject* object : device.in_order()) {
    maxpat::Box box;
    auto old = object->box.empty() ? old_boxes.end() : old_boxes.find(object->box);
    if (old != old_boxes.end() && old->second->class_name() == object->cls &&
        old->second->args() == object->args) {
      box = *old->second;
      const auto size = object->size.value_or(std::array<double, 2>{0, 0});
      if (object->ui) {
        box.json["presentation_rect"] = json::array{object->x, object->y, size[0], size[1]};
      } else if (auto rect = box.patching_rect()) {
        if ((*rect)[0] != object->x || (*rect)[1] != object->y)
          box.json["patching_rect"] = json::array{object->x, object->y, (*rect)[2], (*rect)[3]};
      }
    } else {
      std::optional<std::array<double, 4>> presentation;
      if (object->ui) {
        const auto size = object->size.value_or(std::array<double, 2>{50, 50});
        presentation = std::array<double, 4>{object->x, object->y, size[0], size[1]};
      }
      box = maxpat::make_box(old != old_boxes.end() ? old->first : fresh_id(), object->cls,
                             object->args, object->x, object->y, presentation);
      if (object->size && !object->ui)
        box.json["patching_rect"] =
            json::array{object->x, object->y, (*object->size)[0], (*object->size)[1]};
    }
    if (box.id() != object->id || box.json.contains("varname")) box.json["varname"] = object->id;
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
  json::object meta{{"name", device.info().name}};
  json::array maps;
  for (const auto& [parameter, mapping] : device.mappings())
    maps.push_back(json::object{
        {"parameter", parameter}, {"object", mapping.object}, {"property", mapping.property}});
  if (!maps.empty()) meta["mappings"] = std::move(maps);
  json::object scripts;
  for (const auto& [object, path] : device.scripts())
    scripts[object] = path;
  if (!scripts.empty()) meta["scripts"] = std::move(scripts);
  json::object attrs;
  for (const MaxObject* object : device.in_order()) {
    if (object->attrs.empty()) continue;
    json::object values;
    for (const auto& [key, value] : object->attrs)
      values[key] = value;
    attrs[object->id] = std::move(values);
  }
  if (!attrs.empty()) meta["attrs"] = std::move(attrs);
  patcher.json["fcp"] = std::move(meta);
  return patcher;
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
  maxpat::Patcher patcher = patcher_for(device);
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
