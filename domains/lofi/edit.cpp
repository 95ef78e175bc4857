#include "domains/lofi/edit.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <cmath>

#include "domains/lofi/box_payload.hpp"
#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

// A coordinate or size as JSON: whole numbers as integers (600, not 6E2).
json::value num(double value) {
  if (std::abs(value) < 1e15 && std::floor(value) == value)
    return json::value(static_cast<std::int64_t>(value));
  return json::value(value);
}

// Max atoms of an argument text, as the daemon script expects them: a JSON array with numbers
// as numbers ("440 0.5 foo" → [440, 0.5, "foo"]).
json::array atoms(std::string_view args) {
  json::array out;
  for (const auto& atom : maxpat::split_atoms(args)) {
    double value = 0;
    auto [ptr, ec] = std::from_chars(atom.data(), atom.data() + atom.size(), value);
    if (ec == std::errc() && ptr == atom.data() + atom.size() && !atom.empty()) {
      out.push_back(num(value));
    } else {
      out.push_back(json::value(atom));
    }
  }
  return out;
}

// One message; a backward one (undo, compensation) says so.
core::Effect message(std::string verb, json::object payload, bool forward = true) {
  if (!forward) payload["undo"] = true;
  return core::Effect{"/lofi/" + std::move(verb), json::serialize(payload), {}};
}

// The box text of a new object exactly as the file saves it ("/ 100.", a comment's words), or
// nullopt for boxes without text (live.dial).
std::optional<std::string> box_text(const MaxObject& o) {
  const maxpat::Box box = maxpat::make_box("obj-1", o.cls, o.args, o.x, o.y);
  if (!box.json.contains("text")) return std::nullopt;
  return box.text();
}

json::object attrs_json(const MaxObject& o) {
  json::object attrs;
  for (const auto& [key, value] : o.attrs)
    attrs[key] = maxpat::attribute_value(key, value);
  return attrs;
}

json::array rect_json(double x, double y, const std::array<double, 2>& size) {
  return json::array{num(x), num(y), num(size[0]), num(size[1])};
}

json::object layer_json(const Device& device, const MaxObject& o) {
  json::object layer{{"id", o.id},
                     {"name", o.layer.empty() ? o.id : o.layer},
                     {"class", o.cls},
                     {"x", num(o.x)},
                     {"y", num(o.y)},
                     {"width", num(o.size ? (*o.size)[0] : 0.0)},
                     {"height", num(o.size ? (*o.size)[1] : 0.0)},
                     {"args", atoms(o.args)}};
  if (auto text = box_text(o)) layer["text"] = *text;
  layer["attrs"] = attrs_json(o);
  add_saved_box(device, o, layer);
  return layer;
}

std::vector<core::Effect> create_messages(const Device& device, const MaxObject& o, bool forward) {
  if (o.ui)
    return {message("ui", json::object{{"layers", json::array{layer_json(device, o)}}}, forward)};
  json::object create{
      {"id", o.id}, {"class", o.cls}, {"x", num(o.x)}, {"y", num(o.y)}, {"args", atoms(o.args)}};
  if (auto text = box_text(o)) create["text"] = *text;
  add_saved_box(device, o, create);
  std::vector<core::Effect> out{message("create", std::move(create), forward)};
  for (const auto& [attr, value] : o.attrs)
    out.push_back(message(
        "set",
        json::object{{"id", o.id}, {"attr", attr}, {"value", maxpat::attribute_value(attr, value)}},
        forward));
  return out;
}

json::object wire_json(const Wire& w) {
  return json::object{
      {"sourceId", w.source}, {"outlet", w.outlet}, {"destId", w.destination}, {"inlet", w.inlet}};
}

json::object map_json(const Mapping& m) {
  return json::object{{"parameter", m.parameter}, {"objectId", m.object}, {"property", m.property}};
}

// The messages that change an object Max keeps (same class, arguments and view).
std::vector<core::Effect> update_messages(const std::string& id, const MaxObject& from,
                                          const MaxObject& to, bool forward) {
  std::vector<core::Effect> out;
  const bool moved = from.x != to.x || from.y != to.y;
  if (to.ui && to.size && (moved || from.size != to.size)) {
    // A UI layer's place is its presentation rectangle; its patching_rect stays.
    out.push_back(message(
        "set",
        json::object{
            {"id", id}, {"attr", "presentation_rect"}, {"value", rect_json(to.x, to.y, *to.size)}},
        forward));
  } else if (!to.ui && to.size && from.size != to.size) {
    out.push_back(message(
        "set",
        json::object{
            {"id", id}, {"attr", "patching_rect"}, {"value", rect_json(to.x, to.y, *to.size)}},
        forward));
  } else if (moved) {
    out.push_back(
        message("move", json::object{{"id", id}, {"x", num(to.x)}, {"y", num(to.y)}}, forward));
  }
  for (const auto& [attr, value] : to.attrs) {
    auto old = from.attrs.find(attr);
    if (old == from.attrs.end() || old->second != value)
      out.push_back(message(
          "set",
          json::object{{"id", id}, {"attr", attr}, {"value", maxpat::attribute_value(attr, value)}},
          forward));
  }
  for (const auto& [attr, value] : from.attrs) {
    if (!to.attrs.contains(attr))
      out.push_back(
          message("set", json::object{{"id", id}, {"attr", attr}, {"unset", true}}, forward));
  }
  return out;
}

// Max builds the object again: remove, create, and what the old box took with it.
std::vector<core::Effect> rebuild_messages(const Device& device, const ObjectChange& c,
                                           const MaxObject& to, bool forward) {
  std::vector<core::Effect> out{message("remove", json::object{{"id", c.id}}, forward)};
  for (auto& effect : create_messages(device, to, forward))
    out.push_back(std::move(effect));
  for (const auto& wire : c.wires)
    out.push_back(message("wire", wire_json(wire), forward));
  if (c.script)
    out.push_back(
        message("inject", json::object{{"targetId", c.id}, {"filePath", *c.script}}, forward));
  for (const auto& mapping : c.mappings)
    out.push_back(message("map", map_json(mapping), forward));
  return out;
}

// The device's settings that differ between `from` and `to`, as /lofi/device sends them.
json::object settings_json(const DeviceInfo& from, const DeviceInfo& to) {
  json::object out;
  if (from.width != to.width || from.height != to.height) {
    out["width"] = num(to.width);
    out["height"] = num(to.height);
  }
  if (from.openinpresentation != to.openinpresentation)
    out["openinpresentation"] = to.openinpresentation;
  if (from.devicewidth != to.devicewidth) out["devicewidth"] = num(to.devicewidth);
  return out;
}

}  // namespace

std::vector<std::string> DeviceChanges::touched(const std::vector<DeviceChange>& changes) {
  std::vector<std::string> ids;
  for (const auto& change : changes) {
    if (const auto* object = std::get_if<ObjectChange>(&change); object && object->after)
      ids.push_back(object->id);
    if (const auto* script = std::get_if<ScriptChange>(&change); script && script->after)
      ids.push_back(script->object);
    if (const auto* mapping = std::get_if<MappingChange>(&change); mapping && mapping->after)
      ids.push_back(mapping->after->object);
  }
  return ids;
}

void DeviceChanges::apply(Device& device, const DeviceChange& change, bool forward) {
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, ObjectChange>) {
          const auto& target = forward ? c.after : c.before;
          if (target) {
            device.put_object(*target);
          } else {
            device.erase_object(c.id);
          }
        } else if constexpr (std::is_same_v<C, WireChange>) {
          if (c.added == forward) {
            device.add_wire(c.wire);
          } else {
            device.erase_wire(c.wire);
          }
        } else if constexpr (std::is_same_v<C, MappingChange>) {
          const auto& target = forward ? c.after : c.before;
          if (target) {
            device.put_mapping(*target);
          } else {
            device.erase_mapping(c.parameter);
          }
        } else if constexpr (std::is_same_v<C, ScriptChange>) {
          const auto& target = forward ? c.after : c.before;
          if (target) {
            device.put_script(c.object, *target);
          } else {
            device.erase_script(c.object);
          }
        } else {
          device.info() = forward ? c.after : c.before;
        }
      },
      change);
}

std::vector<core::Effect> max_messages(const Device& device, const DeviceChange& change,
                                       bool forward) {
  return std::visit(
      [&](const auto& c) -> std::vector<core::Effect> {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, ObjectChange>) {
          const auto& from = forward ? c.before : c.after;
          const auto& to = forward ? c.after : c.before;
          if (!from && to) return create_messages(device, *to, forward);
          if (from && !to) return {message("remove", json::object{{"id", c.id}}, forward)};
          if (!from || !to) return {};
          if (from->cls != to->cls || from->args != to->args || from->ui != to->ui)
            return rebuild_messages(device, c, *to, forward);
          return update_messages(c.id, *from, *to, forward);
        } else if constexpr (std::is_same_v<C, WireChange>) {
          return {message(c.added == forward ? "wire" : "unwire", wire_json(c.wire), forward)};
        } else if constexpr (std::is_same_v<C, MappingChange>) {
          const auto& from = forward ? c.before : c.after;
          const auto& to = forward ? c.after : c.before;
          if (!to) return {message("unmap", json::object{{"parameter", c.parameter}}, forward)};
          // Max maps a parameter to one object: one it leaves is unmapped first.
          if (from && from->object != to->object)
            return {message("unmap", json::object{{"parameter", c.parameter}}, forward),
                    message("map", map_json(*to), forward)};
          return {message("map", map_json(*to), forward)};
        } else if constexpr (std::is_same_v<C, ScriptChange>) {
          const auto& to = forward ? c.after : c.before;
          if (!to) return {};
          return {
              message("inject", json::object{{"targetId", c.object}, {"filePath", *to}}, forward)};
        } else {
          const DeviceInfo& from = forward ? c.before : c.after;
          const DeviceInfo& to = forward ? c.after : c.before;
          json::object settings = settings_json(from, to);
          if (settings.empty()) return {};
          return {message("device", std::move(settings), forward)};
        }
      },
      change);
}

std::vector<core::Effect> edit_effects(const Device& device,
                                       const std::vector<DeviceChange>& changes, bool forward) {
  std::vector<core::Effect> out;
  auto add = [&](const DeviceChange& change) {
    auto undo = max_messages(device, change, !forward);
    auto messages = max_messages(device, change, forward);
    for (std::size_t i = 0; i < messages.size(); ++i) {
      // The whole change's undo rides on its last message: compensation runs newest first.
      if (i + 1 == messages.size()) messages[i].undo = undo;
      out.push_back(std::move(messages[i]));
    }
  };
  if (forward) {
    for (const auto& change : changes)
      add(change);
  } else {
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)
      add(*it);
  }
  return out;
}

std::vector<core::Effect> build_messages(const Device& device) {
  const DeviceInfo& info = device.info();
  std::vector<core::Effect> out{
      message("init", json::object{{"deviceName", info.name},
                                   {"width", num(info.width)},
                                   {"height", num(info.height)},
                                   {"openinpresentation", info.openinpresentation},
                                   {"devicewidth", num(info.devicewidth)}})};
  for (const MaxObject* object : device.in_order()) {
    for (auto& effect : create_messages(device, *object, true))
      out.push_back(std::move(effect));
  }
  for (const auto& wire : device.wires())
    out.push_back(message("wire", wire_json(wire)));
  for (const auto& [object, path] : device.scripts())
    out.push_back(message("inject", json::object{{"targetId", object}, {"filePath", path}}));
  for (const auto& [parameter, mapping] : device.mappings()) {
    json::object map = map_json(mapping);
    // The short name the box has (Max's map would derive one from the name).
    if (const MaxObject* object = device.object(mapping.object)) {
      const auto saved = saved_attributes(device, *object);
      if (auto it = saved.find("parameter_shortname"); it != saved.end())
        map["shortname"] = it->second;
    }
    out.push_back(message("map", std::move(map)));
  }
  return out;
}

void DeviceTransaction::put_object(MaxObject object) {
  ObjectChange change;
  change.id = object.id;
  if (const MaxObject* current = device_.object(object.id)) {
    change.before = *current;
    if (object.order == 0) object.order = current->order;
  }
  if (object.order == 0) object.order = device_.next_order();
  // A box keeps its id for its life: a new object takes the next free one now, so that later
  // saves write every box under the same id whatever was added before it.
  if (object.box.empty())
    object.box =
        change.before && !change.before->box.empty() ? change.before->box : device_.next_box_id();
  if (change.before && *change.before == object) return;
  if (change.before && (change.before->cls != object.cls || change.before->args != object.args ||
                        change.before->ui != object.ui)) {
    change.wires = device_.wires_of(object.id);
    if (auto it = device_.scripts().find(object.id); it != device_.scripts().end())
      change.script = it->second;
    for (const auto& [parameter, mapping] : device_.mappings()) {
      if (mapping.object == object.id) change.mappings.push_back(mapping);
    }
  }
  const std::string id = object.id;
  change.after = std::move(object);
  transaction_.apply(std::move(change));
  // A box saved with parameter_enable 1 and a parameter_longname is a Live parameter: the
  // device reopened from its file maps it, so the model maps it now (one name, one object).
  if (mapping_of(device_.mappings(), id) != nullptr) return;
  const std::string name = meaning_of(saved_box(device_, *device_.object(id))).parameter;
  if (!name.empty() && !device_.mappings().contains(name)) put_mapping({name, id, "value"});
}

void DeviceTransaction::erase_object(const std::string& id) {
  const MaxObject* current = device_.object(id);
  if (current == nullptr) return;
  for (const auto& wire : device_.wires_of(id))
    erase_wire(wire);
  std::vector<std::string> parameters;
  for (const auto& [parameter, mapping] : device_.mappings()) {
    if (mapping.object == id) parameters.push_back(parameter);
  }
  for (const auto& parameter : parameters)
    erase_mapping(parameter);
  if (auto it = device_.scripts().find(id); it != device_.scripts().end())
    transaction_.apply(ScriptChange{id, it->second, std::nullopt});
  transaction_.apply(ObjectChange{id, *device_.object(id), std::nullopt, {}, std::nullopt, {}});
}

void DeviceTransaction::add_wire(const Wire& wire) {
  if (!device_.has_wire(wire)) transaction_.apply(WireChange{wire, true});
}

void DeviceTransaction::erase_wire(const Wire& wire) {
  if (device_.has_wire(wire)) transaction_.apply(WireChange{wire, false});
}

void DeviceTransaction::put_mapping(const Mapping& mapping) {
  MappingChange change{mapping.parameter, std::nullopt, mapping};
  if (auto it = device_.mappings().find(mapping.parameter); it != device_.mappings().end()) {
    if (it->second == mapping) return;
    change.before = it->second;
  }
  transaction_.apply(std::move(change));
}

void DeviceTransaction::erase_mapping(const std::string& parameter) {
  auto it = device_.mappings().find(parameter);
  if (it == device_.mappings().end()) return;
  transaction_.apply(MappingChange{parameter, it->second, std::nullopt});
}

void DeviceTransaction::put_script(const std::string& object, const std::string& path) {
  ScriptChange change{object, std::nullopt, path};
  if (auto it = device_.scripts().find(object); it != device_.scripts().end()) {
    change.before = it->second;
  }
  transaction_.apply(std::move(change));
}

void DeviceTransaction::update_info(const std::function<void(DeviceInfo&)>& change) {
  DeviceInfo next = device_.info();
  change(next);
  if (next == device_.info()) return;
  transaction_.apply(InfoChange{device_.info(), next});
}

}  // namespace fcp::lofi
